"""The 32 checks of wgpu's subgroup test shader, ported to Python as a user following
docs/subgroups.md would write them (source: tests/data/README.md, "wgpu's subgroup
operations test"). One workgroup of 128 invocations; invocation ``g`` writes a u32 whose bit
``k`` says check ``k`` passed, so a correct run writes ``0xFFFFFFFF`` everywhere. Checks 27-29
and 31 are the divergent ones: an ``if``/``else``, a ``switch`` (here ``match``), a loop each
lane leaves with ``break`` at its own iteration, and a last ``subgroupAdd`` that must see the
whole subgroup again (reconvergence)."""

from __future__ import annotations

import asyncshader as ash
from asyncshader import u32, vec3u, vec4u

#: the workgroup's u32 that check 30 writes before a barrier
shared = ash.workgroup(u32)


def bit(index: int, value: bool) -> u32:
    """``add_result_to_mask``: check ``index``'s bit, set when ``value`` holds."""
    return u32(1 if value else 0) << u32(index)


@ash.compute(workgroup_size=128)
async def subgroup_checks(out: ash.Storage, *, global_invocation_id: vec3u,
                          num_subgroups: u32, subgroup_id: u32, subgroup_size: u32,
                          subgroup_invocation_id: u32):
    g = global_invocation_id.x
    size = subgroup_size
    sid = subgroup_invocation_id
    base = g - sid  # the global id of the subgroup's lane 0
    passed = u32(0)
    passed |= bit(0, num_subgroups == u32(128) / size)
    passed |= bit(1, subgroup_id == g / size)
    passed |= bit(2, sid == g % size)

    ballot = vec4u(0, 0, 0, 0)
    for i in range(size):
        ballot[i // 32] |= ((base + i) & 1) << (i % 32)
    got = await ash.subgroup_ballot((sid & 1) == 1)
    passed |= bit(3, ash.all(got.eq(ballot)))

    passed |= bit(4, await ash.subgroup_all(True))
    passed |= bit(5, not await ash.subgroup_all(sid != 0))
    passed |= bit(6, await ash.subgroup_any(sid == 0))
    passed |= bit(7, not await ash.subgroup_any(False))

    total, product, top, low = u32(0), u32(1), u32(0), u32(0xFFFFFFFF)
    conj, disj, excl = u32(0xFFFFFFFF), u32(0), u32(0)
    for i in range(size):
        v = base + i + 1
        total += v
        product *= v
        top = ash.max(top, v)
        low = ash.min(low, v)
        conj &= v
        disj |= v
        excl ^= v
    mine = g + 1
    passed |= bit(8, await ash.subgroup_add(mine) == total)
    passed |= bit(9, await ash.subgroup_mul(mine) == product)
    passed |= bit(10, await ash.subgroup_max(mine) == top)
    passed |= bit(11, await ash.subgroup_min(mine) == low)
    passed |= bit(12, await ash.subgroup_and(mine) == conj)
    passed |= bit(13, await ash.subgroup_or(mine) == disj)
    passed |= bit(14, await ash.subgroup_xor(mine) == excl)

    below_sum, below_product = u32(0), u32(1)
    for i in range(sid):
        below_sum += base + i + 1
        below_product *= base + i + 1
    passed |= bit(15, await ash.subgroup_exclusive_add(mine) == below_sum)
    passed |= bit(16, await ash.subgroup_exclusive_mul(mine) == below_product)
    passed |= bit(17, await ash.subgroup_inclusive_add(mine) == below_sum + mine)
    passed |= bit(18, await ash.subgroup_inclusive_mul(mine) == below_product * mine)

    passed |= bit(19, await ash.subgroup_broadcast_first(u32(sid != 0)) == 0)
    passed |= bit(20, await ash.subgroup_broadcast_first(u32(sid == 0)) == 1)
    passed |= bit(21, await ash.subgroup_broadcast(sid, 1) == 1)
    passed |= bit(22, await ash.subgroup_shuffle(sid, sid) == sid)
    passed |= bit(23, await ash.subgroup_shuffle(sid, size - 1 - sid) == size - 1 - sid)
    # (called before the `or`, which would skip it in an edge lane: tests/data/README.md)
    down = await ash.subgroup_shuffle_down(sid, 1)
    passed |= bit(24, sid == size - 1 or down == sid + 1)
    up = await ash.subgroup_shuffle_up(sid, 1)
    passed |= bit(25, sid == 0 or up == sid - 1)
    passed |= bit(26, await ash.subgroup_shuffle_xor(sid, size - 1) == (sid ^ (size - 1)))

    if sid % 2 == 0:
        half = await ash.subgroup_add(u32(1)) == size / 2
    else:
        half = await ash.subgroup_add(u32(1)) == size / 2
    passed |= bit(27, half)

    first = False
    match int(sid % 3):
        case 0:
            first = await ash.subgroup_broadcast_first(sid) == 0
        case 1:
            first = await ash.subgroup_broadcast_first(sid) == 1
        case 2:
            first = await ash.subgroup_broadcast_first(sid) == 2
        case _:
            pass
    passed |= bit(28, first)

    count = u32(0)
    i = size
    while True:  # (WGSL: for (var i = size; i >= 0u; i -= 1u), always true for a u32)
        count = await ash.subgroup_add(u32(1))
        if i == sid:
            break
        i -= 1
    passed |= bit(29, count == sid + 1)

    if g == 0:
        shared.value = size
    await ash.workgroup_barrier()
    passed |= bit(30, shared.value == size)

    passed |= bit(31, await ash.subgroup_add(u32(1)) == size)
    out[g] = passed
