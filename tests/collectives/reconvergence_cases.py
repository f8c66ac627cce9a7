"""Kernels whose lanes diverge around subgroup operations and reconverge, each declaring
lavapipe's subgroup size, 8, with the same kernel in WGSL (what lavapipe runs in
test_reconvergence_gpu.py) and the values a GPU with maximal reconvergence gives, worked out
by hand (test_reconvergence.py). Eight lanes, one subgroup of 8; ``out[i]`` is the uniform
``subgroup_add(1)`` after the divergent part, ``inner[i]`` what the divergent part computed."""

from __future__ import annotations

import asyncshader as ash
from asyncshader import u32

add = ash.subgroup_add


@ash.compute(workgroup_size=8, subgroup_size=8)
async def if_then(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    if i < 3:
        inner[i] = await add(u32(1))
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def if_else(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    if i % 2 == 0:
        x = await add(i)
    else:
        x = await add(u32(100))
        x += await add(u32(1))
    inner[i] = x
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def lane_loop(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    acc = u32(0)
    for _ in range(i):
        acc += await add(u32(1))
    inner[i] = acc
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def loop_break(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    acc = u32(0)
    for j in range(8):
        if j == i % 4:
            break
        acc += await add(u32(1)) * u32(j + 1)
    inner[i] = acc
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def loop_continue(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    acc = u32(0)
    for j in range(4):
        if j == i:
            continue
        acc += await add(u32(1)) * u32(j + 1)
    inner[i] = acc
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def early_return(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    inner[i] = await add(u32(1))
    if i >= 5:
        return
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def while_if(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    acc = u32(0)
    j = u32(0)
    while j < i:
        if (i + j) % 3 == 0:
            acc += await add(u32(1)) * (j + 1)
        j += 1
    inner[i] = acc
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def nested(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    acc = u32(0)
    if i < 6:
        for _ in range(i):
            acc += await add(u32(1))
        acc += u32(100) * await add(u32(1))
    inner[i] = acc
    out[i] = await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def while_vote(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    j = u32(0)
    acc = u32(0)
    while await ash.subgroup_any(j < i):  # a subgroup operation in the loop's test
        if j < i:
            acc += await add(u32(1))
        j += 1
    inner[i] = acc
    out[i] = await add(j)


async def _count_below(i: u32, limit: u32) -> u32:
    """A helper whose early return leaves some lanes out of its subgroup operation."""
    if i >= limit:
        return u32(0)
    return await add(u32(1))


@ash.compute(workgroup_size=8, subgroup_size=8)
async def helper_return(out: ash.Storage, inner: ash.Storage, *, subgroup_invocation_id: u32):
    i = subgroup_invocation_id
    inner[i] = await _count_below(i, u32(3)) + u32(10) * await _count_below(i, u32(6))
    out[i] = await add(u32(1))


#: name -> (kernel, WGSL body of fn main(@builtin(subgroup_invocation_id) i: u32), expected
#: inner, expected out)
CASES = {
    "if": (if_then, """
  if i < 3u { inner[i] = subgroupAdd(1u); }
  out[i] = subgroupAdd(1u);""", [3, 3, 3, 0, 0, 0, 0, 0], [8] * 8),
    "if_else": (if_else, """
  var x = 0u;
  if i % 2u == 0u { x = subgroupAdd(i); } else { x = subgroupAdd(100u); x += subgroupAdd(1u); }
  inner[i] = x;
  out[i] = subgroupAdd(1u);""", [12, 404] * 4, [8] * 8),
    "loop": (lane_loop, """
  var acc = 0u;
  for (var j = 0u; j < i; j++) { acc += subgroupAdd(1u); }
  inner[i] = acc;
  out[i] = subgroupAdd(1u);""", [0, 7, 13, 18, 22, 25, 27, 28], [8] * 8),
    "break": (loop_break, """
  var acc = 0u;
  for (var j = 0u; j < 8u; j++) { if j == i % 4u { break; } acc += subgroupAdd(1u) * (j + 1u); }
  inner[i] = acc;
  out[i] = subgroupAdd(1u);""", [0, 6, 14, 20] * 2, [8] * 8),
    "continue": (loop_continue, """
  var acc = 0u;
  for (var j = 0u; j < 4u; j++) { if j == i { continue; } acc += subgroupAdd(1u) * (j + 1u); }
  inner[i] = acc;
  out[i] = subgroupAdd(1u);""", [63, 56, 49, 42, 70, 70, 70, 70], [8] * 8),
    "return": (early_return, """
  inner[i] = subgroupAdd(1u);
  if i >= 5u { return; }
  out[i] = subgroupAdd(1u);""", [8] * 8, [5, 5, 5, 5, 5, 0, 0, 0]),
    "while_if": (while_if, """
  var acc = 0u;
  var j = 0u;
  while j < i { if (i + j) % 3u == 0u { acc += subgroupAdd(1u) * (j + 1u); } j++; }
  inner[i] = acc;
  out[i] = subgroupAdd(1u);""", [0, 0, 4, 2, 6, 9, 6, 12], [8] * 8),
    "nested": (nested, """
  var acc = 0u;
  if i < 6u {
    for (var j = 0u; j < i; j++) { acc += subgroupAdd(1u); }
    acc += 100u * subgroupAdd(1u);
  }
  inner[i] = acc;
  out[i] = subgroupAdd(1u);""", [600, 605, 609, 612, 614, 615, 0, 0], [8] * 8),
    "while_vote": (while_vote, """
  var acc = 0u;
  var j = 0u;
  loop {
    if !subgroupAny(j < i) { break; }
    if j < i { acc += subgroupAdd(1u); }
    j++;
  }
  inner[i] = acc;
  out[i] = subgroupAdd(j);""", [0, 7, 13, 18, 22, 25, 27, 28], [56] * 8),
    "helper_return": (helper_return, """
  inner[i] = count_below(i, 3u) + 10u * count_below(i, 6u);
  out[i] = subgroupAdd(1u);""", [63, 63, 63, 60, 60, 60, 0, 0], [8] * 8),
}

#: the WGSL helper of "helper_return" (prepended to every module; unused elsewhere)
HELPERS = """
fn count_below(i: u32, limit: u32) -> u32 {
  if i >= limit { return 0u; }
  return subgroupAdd(1u);
}
"""
