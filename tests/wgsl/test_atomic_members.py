"""Atomics on an ``atomic<T>`` member of a struct (``ash.ptr(p[i].count)``, WGSL
``&p[i].count``) in a storage buffer and in workgroup memory, and on a storage buffer declared
one atomic (``Storage[atomic(u32)]``, WGSL ``var<storage, read_write> c: atomic<u32>``): the
values they leave, what the race detector sees, and what is refused (a plain read or write of
an atomic, a whole-struct load of a struct holding one); and what to_wgsl writes for each
(``&p[i].count``; a workgroup struct zeroed member by member, as only ``atomicStore`` can write
an atomic), cross-checked on lavapipe."""

from __future__ import annotations

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, i32, u32, vec3u
from asyncshader.emit import WGSLEmitError, to_wgsl


@ash.struct
class Bin:
    total: f32
    count: ash.atomic(u32)
    low: ash.atomic(i32)


@ash.struct
class Hist:
    total: ash.atomic(u32)
    bins: ash.array(ash.atomic(u32), 4)


@ash.compute(workgroup_size=16)
async def binned(bins: ash.Storage[Bin], vals: ash.Storage[i32], *,
                 local_invocation_index: u32):
    i = local_invocation_index
    b = i % 4
    await ash.atomic_add(ash.ptr(bins[b].count), 1)
    await ash.atomic_min(ash.ptr(bins[b].low), vals[i])


def test_atomics_on_struct_members_of_a_storage_buffer_land_every_update():
    bins = Bin.zeros(4)
    vals = np.arange(16, dtype=np.int32) - 5   # bin b gets b-5, b-1, b+3, b+7
    for seed in (None, 1, 2):
        bins["count"], bins["low"] = 0, 0
        ash.run(binned, bins=bins, vals=vals, schedule=None if seed is None else
                ash.Random(seed))
        assert bins["count"].tolist() == [4, 4, 4, 4]
        assert bins["low"].tolist() == [-5, -4, -3, -2]
        assert bins["total"].tolist() == [0, 0, 0, 0]   # the neighbour member is untouched


hist = ash.workgroup(Hist)


@ash.compute(workgroup_size=16)
async def histogram(out: ash.Storage[u32], *, local_invocation_index: u32,
                    workgroup_id: vec3u):
    i = local_invocation_index
    await ash.atomic_add(ash.ptr(hist.value.total), i)
    await ash.atomic_add(ash.ptr(hist.value.bins[i % 4]), 1)
    await ash.workgroup_barrier()
    if i < 4:
        out[workgroup_id.x * 5 + i] = await ash.atomic_load(ash.ptr(hist.value.bins[i]))
    if i == 4:
        out[workgroup_id.x * 5 + 4] = await ash.atomic_load(ash.ptr(hist.value.total))


def test_atomics_on_a_workgroup_struct_count_per_workgroup():
    out = np.zeros(10, np.uint32)
    result = ash.run(histogram, 2, out=out, sanitize="report", schedule=ash.Random(2))
    assert result.findings == []
    assert out.tolist() == [4, 4, 4, 4, 120] * 2   # 0 + 1 + ... + 15 = 120, each workgroup


@ash.compute(workgroup_size=8)
async def tickets(counter: ash.Storage[ash.atomic(u32)], seen: ash.Storage[u32], *,
                  global_invocation_id: vec3u):
    seen[global_invocation_id.x] = await ash.atomic_add(ash.ptr(counter), 1)


def test_a_storage_buffer_declared_one_atomic_hands_out_every_ticket_once():
    counter = np.zeros(1, np.uint32)
    seen = np.zeros(16, np.uint32)
    result = ash.run(tickets, 2, counter=counter, seen=seen, schedule=ash.Random(3),
                     sanitize="report")
    assert result.findings == []      # atomics never race with atomics
    assert counter.tolist() == [16]   # the caller's array, updated in place
    assert sorted(seen.tolist()) == list(range(16))


def test_a_storage_atomic_needs_one_element():
    with pytest.raises(ash.BindingError, match=r"'counter' is declared Storage\[atomic\(u32\)\]"
                       r".*array of one element, not shape \(2,\)"):
        ash.run(tickets, counter=np.zeros(2, np.uint32), seen=np.zeros(8, np.uint32))


def test_atomics_on_members_do_not_race_and_plain_members_still_do():
    @ash.compute(workgroup_size=4)
    async def tally(bins: ash.Storage[Bin], *, local_invocation_index: u32):
        await ash.atomic_add(ash.ptr(bins[1].count), 1)
        await ash.atomic_max(ash.ptr(bins[1].low), i32(local_invocation_index))
        bins[1].total = f32(local_invocation_index)   # a plain write by every invocation

    timeline = ash.Timeline()
    result = ash.run(tally, bins=Bin.zeros(2), sanitize="report", instruments=[timeline])
    races = [f for f in result.findings if isinstance(f, ash.DataRace)]
    assert [(r.memory, r.index.suffix, r.first.kind, r.second.kind) for r in races] == [
        ("bins", "[1].total", "store", "store")]
    assert [(a.op, a.old, a.new) for a in timeline.atomics if a.op == "atomic_add"] == [
        ("atomic_add", 0, 1), ("atomic_add", 1, 2), ("atomic_add", 2, 3), ("atomic_add", 3, 4)]


def test_a_plain_access_of_an_atomic_member_names_the_fix():
    @ash.compute(workgroup_size=1)
    async def plain(bins: ash.Storage[Bin]):
        bins[0].total = f32(bins[0].count)

    with pytest.raises(ash.ShaderError, match=r"atomic_load\(ash.ptr\(p\[i\].count\)\)"):
        ash.run(plain, bins=Bin.zeros(1))

    @ash.compute(workgroup_size=1)
    async def whole(bins: ash.Storage[Bin]):
        bins[0] = bins[1].load()

    with pytest.raises(ash.ShaderError, match="nor loading or storing a whole struct"):
        ash.run(whole, bins=Bin.zeros(2))


def test_a_plain_access_of_a_storage_atomic_names_the_fix():
    @ash.compute(workgroup_size=1)
    async def plain(counter: ash.Storage[ash.atomic(u32)]):
        counter[0] = 1

    with pytest.raises(ash.ShaderError, match=r"atomic_store\(ash.ptr\(c\), v\)"):
        ash.run(plain, counter=np.zeros(1, np.uint32))


# --------------------------------------------------------------------------- emitted


def test_struct_members_of_a_storage_buffer(crosscheck):
    text = to_wgsl(binned)
    assert "struct Bin {\n    total: f32,\n    count: atomic<u32>,\n    low: atomic<i32>,\n}" \
        in text
    assert "var<storage, read_write> bins: array<Bin>;" in text
    assert "_ = atomicAdd(&bins[b].count, 1);\n    _ = atomicMin(&bins[b].low, vals[i]);" in text
    vals = np.arange(16, dtype=np.int32) - 5
    report = crosscheck(binned, 1, bins=Bin.zeros(4), vals=vals)
    assert report.gpu["bins"]["count"].tolist() == [4, 4, 4, 4]
    assert report.gpu["bins"]["low"].tolist() == [-5, -4, -3, -2]


def test_a_workgroup_struct_of_atomics_is_zeroed_member_by_member(crosscheck):
    text = to_wgsl(histogram)
    assert "var<workgroup> hist: Hist;" in text
    assert "if local_invocation_index == 0u { atomicStore(&hist.total, 0); for (var j0 = 0u; " \
        "j0 < 4u; j0++) { atomicStore(&hist.bins[j0], 0); } }" in text
    assert "_ = atomicAdd(&hist.bins[i % 4], 1);" in text
    assert "out[workgroup_id.x * 5 + 4] = atomicLoad(&hist.total);" in text
    report = crosscheck(histogram, 2, out=np.zeros(10, np.uint32))
    assert report.gpu["out"].tolist() == [4, 4, 4, 4, 120] * 2


def test_a_storage_buffer_declared_one_atomic(crosscheck):
    text = to_wgsl(tickets)
    assert "@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;" in text
    assert "seen[global_invocation_id.x] = atomicAdd(&counter, 1);" in text
    report = crosscheck(tickets, 2, counter=np.zeros(1, np.uint32),
                        seen=np.zeros(16, np.uint32), ignore=("seen",),
                        check=lambda cpu, gpu: sorted(gpu["seen"]) == list(range(16)))
    assert report.gpu["counter"].tolist() == report.cpu["counter"].tolist() == [16]


low = ash.workgroup(ash.atomic(i32))


@ash.compute(workgroup_size=8)
async def lowest(vals: ash.Storage[i32], out: ash.Storage[i32], *,
                 local_invocation_index: u32, workgroup_id: vec3u):
    await ash.atomic_min(ash.ptr(low), vals[workgroup_id.x * 8 + local_invocation_index])
    await ash.workgroup_barrier()
    if local_invocation_index == 0:
        out[workgroup_id.x] = await ash.atomic_load(ash.ptr(low))


def test_a_single_workgroup_atomic_i32(crosscheck):
    text = to_wgsl(lowest)
    assert "var<workgroup> low: atomic<i32>;" in text
    assert "if local_invocation_index == 0u { atomicStore(&low, 0); }" in text
    vals = np.array([5, -3, 7, 2, 9, -8, 1, 0, 4, 6, 3, 8, 2, 7, 5, 1], np.int32)
    report = crosscheck(lowest, 2, vals=vals, out=np.zeros(2, np.int32))
    assert report.gpu["out"].tolist() == [-8, 0]   # min(0, ...): workgroup memory starts zero


def test_a_plain_read_of_an_atomic_member_names_the_fix():
    @ash.compute(workgroup_size=1)
    async def plain(bins: ash.Storage[Bin], out: ash.Storage[u32]):
        out[0] = bins[0].count + 1

    with pytest.raises(WGSLEmitError, match=r"a plain read of the atomic `bins\[0\].count`.*"
                       r"Fix: read it with await ash.atomic_load\(ash.ptr\(bins\[0\].count\)\)"):
        to_wgsl(plain)


def test_an_atomic_on_a_member_of_a_read_only_struct_names_the_fix():
    @ash.compute(workgroup_size=1)
    async def read_only(bins: ash.ReadOnly[Bin]):
        await ash.atomic_add(ash.ptr(bins[0].count), 1)

    with pytest.raises(WGSLEmitError, match=r"an atomic on bins\[0\].count \(a member of a "
                       r"read-only binding: var<storage, read>\).*Fix: bind it as ash.Storage"):
        to_wgsl(read_only)


def test_a_whole_struct_holding_an_atomic_is_neither_built_nor_loaded_in_wgsl():
    @ash.compute(workgroup_size=1)
    async def copies(bins: ash.Storage[Bin]):
        bins[0] = bins[1].load()

    with pytest.raises(WGSLEmitError, match=r"loading the whole Bin `bins\[1\]` \(it holds an "
                       r"atomic.*Fix: read and write its members one by one"):
        to_wgsl(copies)

    @ash.compute(workgroup_size=1)
    async def builds(bins: ash.Storage[Bin]):
        bins[0] = Bin(total=f32(1))

    with pytest.raises(WGSLEmitError, match=r"a Bin value \(it holds an atomic"):
        to_wgsl(builds)
    with pytest.raises(ash.ShaderError, match="nor loading or storing a whole struct"):
        ash.run(builds, bins=Bin.zeros(1))
