"""Puzzles 1-5: map, guard, a shared-memory sum, a barrier in a branch, a prefix sum."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

from .checker import Puzzle

f32, u32 = np.float32, np.uint32

HEADER = """\
import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, f32, ptr, u32, vec3u, workgroup_barrier
"""


def starter(statement: str, body: str) -> str:
    """A starter file: the statement as its docstring, the imports, then ``body``."""
    doc = textwrap.fill(" ".join(statement.split()), 92)
    return f'"""{doc}\n"""\n\n{HEADER}\n\n{textwrap.dedent(body).strip()}\n'


# ------------------------------------------------------------------------------------ 1. map
MAP = """Map: each of the 8 invocations writes out[i] = a[i] + 10, where i is its
local_invocation_index. No invocation needs another's work, so no barrier, no atomic."""


def _map_setup() -> dict[str, Any]:
    return {"a": np.arange(8, dtype=f32) * f32(1.5), "out": np.zeros(8, f32), "workgroups": 1}


P1 = Puzzle(1, "map", "add_ten", MAP, starter(MAP, """
    @ash.compute(workgroup_size=8)
    async def add_ten(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        # your code: out[i] = ...
    """), _map_setup, lambda b: {"out": b["a"] + f32(10)})


# ---------------------------------------------------------------------------------- 2. guard
GUARD = """Guard: out[g] = 2 * a[g] for the n = 13 elements, where g is
global_invocation_id.x. The dispatch runs 2 workgroups of 8 = 16 invocations, more than there
are elements (as every real dispatch rounds up): the last three must not touch a or out."""


def _guard_setup() -> dict[str, Any]:
    return {"a": np.arange(13, dtype=f32) + f32(1), "out": np.zeros(13, f32), "n": u32(13),
            "workgroups": 2}


P2 = Puzzle(2, "guard", "double", GUARD, starter(GUARD, """
    @ash.compute(workgroup_size=8)
    async def double(a: ash.Storage, out: ash.Storage, n: u32, *, global_invocation_id: vec3u):
        g = global_invocation_id.x
        # your code
    """), _guard_setup, lambda b: {"out": b["a"] * f32(2)})


# ------------------------------------------------------------------------ 3. shared-memory sum
SUM = """Shared-memory sum: each workgroup of 8 sums its 8 elements of a into out[w] (w =
workgroup_id.x; 2 workgroups). Each invocation loads one element into the workgroup array tile,
then one invocation adds up tile and writes out[w]."""


def _sum_setup() -> dict[str, Any]:
    return {"a": np.arange(16, dtype=f32) * f32(3) - f32(7), "out": np.zeros(2, f32),
            "workgroups": 2}


P3 = Puzzle(3, "shared-memory sum", "block_sum", SUM, starter(SUM, """
    tile = ash.workgroup(ash.array(f32, 8))


    @ash.compute(workgroup_size=8)
    async def block_sum(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                        workgroup_id: vec3u, global_invocation_id: vec3u):
        i = local_invocation_index
        tile[i] = a[global_invocation_id.x]
        # your code: out[workgroup_id.x] = the sum of tile
    """), _sum_setup, lambda b: {"out": b["a"].reshape(2, 8).sum(axis=1)})


# ----------------------------------------------------------------------- 4. barrier in a branch
BRANCH = """A barrier in a branch: out[i] = a[i] + a[7 - i] for i < 4, through the workgroup
array tile. The starter below runs on some GPUs and hangs or gives garbage on others: find out
why and fix it (the outputs must not change)."""


def _branch_setup() -> dict[str, Any]:
    return {"a": np.array([3, 1, 4, 1, 5, 9, 2, 6], f32), "out": np.zeros(4, f32),
            "workgroups": 1}


P4 = Puzzle(4, "a barrier in a branch", "pair_sums", BRANCH, starter(BRANCH, """
    tile = ash.workgroup(ash.array(f32, 8))


    @ash.compute(workgroup_size=8)
    async def pair_sums(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        tile[i] = a[i]
        if i < 4:
            await workgroup_barrier()
            out[i] = tile[i] + tile[7 - i]
    """), _branch_setup, lambda b: {"out": b["a"][:4] + b["a"][::-1][:4]})


# ------------------------------------------------------------------------------ 5. prefix sum
SCAN = """Prefix sum: out[i] = a[0] + a[1] + ... + a[i] for the 8 invocations of one workgroup
(an inclusive scan). Use the workgroup array tile and log2(8) = 3 rounds: in the round with
offset d, every i >= d adds the value d places down (Hillis and Steele). Careful: in a round,
an invocation must read its neighbour's value before the neighbour overwrites it."""


def _scan_setup() -> dict[str, Any]:
    return {"a": np.array([2, 7, 1, 8, 2, 8, 1, 8], u32), "out": np.zeros(8, u32),
            "workgroups": 1}


P5 = Puzzle(5, "prefix sum", "scan", SCAN, starter(SCAN, """
    tile = ash.workgroup(ash.array(u32, 8))


    @ash.compute(workgroup_size=8)
    async def scan(a: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        i = local_invocation_index
        tile[i] = a[i]
        # your code: three rounds (d = 1, 2, 4), then out[i] = tile[i]
    """), _scan_setup, lambda b: {"out": np.cumsum(b["a"]).astype(u32)})

PUZZLES = [P1, P2, P3, P4, P5]
