"""WGSL atomics against the WebGPU CTS vectors in ``tests/data/compute_atomics_cases.json``.

Each test mirrors a test of ``webgpu:shader,execution,expression,call,builtin,atomics,*``
(gpuweb/cts, files listed in the JSON's ``sources``). The shaders below are line-by-line
translations of the CTS harness WGSL (``atomics/harness.ts``): storage tests use
``id = T(global_invocation_id.x)`` and dispatch in x only; workgroup tests let invocation 0
``atomicStore`` the initial value into ``wg[0..1]``, then barrier, op, barrier, and invocation 0
copies ``wg`` to ``output[workgroup_id.x * 2 + i]``. Every expected value comes from the JSON.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import DATA_DIR

import asyncshader as ash
from asyncshader import i32, u32

DATA = json.loads((DATA_DIR / "compute_atomics_cases.json").read_text())
ATOMICS = DATA["atomics"]
CASES = ATOMICS["cases"]
DTYPE = {"u32": np.uint32, "i32": np.int32}
SCALAR = {"u32": u32, "i32": i32}
SENTINEL = 0xDEADBEEF  # output words a shader must overwrite start with this bit pattern


def case_id(case: dict) -> str:
    return f"{case['scalarType']}-wg{case['workgroupSize']}-dispatch{case['dispatchSize']}"


def buffer(scalar_type: str, values) -> np.ndarray:
    """A storage buffer of the CTS scalar type holding ``values`` (bit patterns wrap)."""
    return np.array([int(v) & 0xFFFFFFFF for v in values], np.uint32).view(DTYPE[scalar_type])


def filled(scalar_type: str, n: int, value: int) -> np.ndarray:
    return buffer(scalar_type, [value] * n)


def kernels(fn) -> dict[int, ash.ComputeKernel]:
    """The same shader at every workgroup size the CTS uses (``@workgroup_size(N)``)."""
    sizes = {c["workgroupSize"] for c in CASES} | {2**k for k in range(9)}
    return {n: ash.compute(workgroup_size=n)(fn) for n in sorted(sizes)}


# ------------------------------------------------------------------- CTS helper functions (WGSL)
def passthrough(id, max):
    """harness.ts kMapId.passthrough: ``fn map_id(id: T) -> T { return id; }``."""
    return id


def remap(id, max):
    """harness.ts kMapId.remap: ``((id * 14957) ^ ((id * 26561) >> 2)) % max`` in T arithmetic."""
    return ((id * 14957) ^ ((id * 26561) >> 2)) % max


MAP_ID = {"passthrough": passthrough, "remap": remap}


def bit(T, i):
    """WGSL ``T(1) << i``: the shift amount is taken modulo 32."""
    return T(1 << int(i % 32))


# ----------------------------------------------------------------------- the shaders, per CTS op
# Each entry: (the CTS statement as the JSON spells it, with {mem} for output/wg; its translation).
# The translation receives the atomic array, the invocation's id (of type T), T and map_id.
async def _add(mem, id, T, map_id):
    await ash.atomic_add(ash.ptr(mem, 0), 1)


async def _sub(mem, id, T, map_id):
    await ash.atomic_sub(ash.ptr(mem, 0), 1)


async def _max(mem, id, T, map_id):
    await ash.atomic_max(ash.ptr(mem, 0), id)


async def _min(mem, id, T, map_id):
    await ash.atomic_min(ash.ptr(mem, 0), id)


async def _and(mem, id, T, map_id):
    i = map_id(u32(id))
    await ash.atomic_and(ash.ptr(mem, i // 32), ~bit(T, i))


async def _or(mem, id, T, map_id):
    i = map_id(u32(id))
    await ash.atomic_or(ash.ptr(mem, i // 32), bit(T, i))


async def _xor(mem, id, T, map_id):
    i = map_id(u32(id))
    await ash.atomic_xor(ash.ptr(mem, i // 32), bit(T, i))


RMW_OPS = {
    "add": ("atomicAdd(&{mem}[0], 1)", _add),
    "sub": ("atomicSub(&{mem}[0], 1)", _sub),
    "max": ("atomicMax(&{mem}[0], id)", _max),
    "min": ("atomicMin(&{mem}[0], id)", _min),
}
BITWISE_OPS = {
    "and": ("let i = map_id(u32(id)); atomicAnd(&{mem}[i / 32], ~(T(1) << i))", _and),
    "or": ("let i = map_id(u32(id)); atomicOr(&{mem}[i / 32], T(1) << i)", _or),
    "xor": ("let i = map_id(u32(id)); atomicXor(&{mem}[i / 32], T(1) << i)", _xor),
}


async def _storage_op(output: ash.Storage, op: ash.Uniform, T: ash.Uniform,
                      map_id: ash.Uniform, num_invocations: ash.Uniform, *,
                      global_invocation_id):
    id = T(global_invocation_id.x)
    await op(output, id, T, lambda x: map_id(x, num_invocations))


STORAGE_OP = kernels(_storage_op)

wg_u32 = ash.workgroup(ash.array(ash.atomic(u32), 2))  # var<workgroup> wg: array<atomic<u32>, 2>
wg_i32 = ash.workgroup(ash.array(ash.atomic(i32), 2))  # var<workgroup> wg: array<atomic<i32>, 2>


async def _workgroup_op(output: ash.Storage, op: ash.Uniform, T: ash.Uniform, init: ash.Uniform,
                        *, local_invocation_index, workgroup_id):
    wg = wg_u32 if T is u32 else wg_i32
    id = T(local_invocation_index)
    if local_invocation_index == 0:
        for i in range(2):
            await ash.atomic_store(ash.ptr(wg, i), T(init))
    await ash.workgroup_barrier()
    await op(wg, id, T, None)
    await ash.workgroup_barrier()
    if local_invocation_index == 0:
        for i in range(2):
            output[workgroup_id.x * 2 + i] = await ash.atomic_load(ash.ptr(wg, i))


WORKGROUP_OP = kernels(_workgroup_op)


def run_storage_test(case, spec, op, map_id="passthrough", schedule=None, max_live=1):
    """harness.ts runStorageVariableTest: output prefilled with init, dispatch (dispatchSize)."""
    t = case["scalarType"]
    output = filled(t, len(spec["expected"]), spec["init"])
    ash.run(STORAGE_OP[case["workgroupSize"]], workgroups=case["dispatchSize"], output=output,
            op=op, T=SCALAR[t], map_id=MAP_ID[map_id],
            num_invocations=case["numInvocations_storage"], schedule=schedule,
            max_live_workgroups=max_live)
    return output


def run_workgroup_test(case, spec, op, schedule=None, max_live=1):
    """harness.ts runWorkgroupVariableTest: wg has 2 elements, output 2 * dispatchSize words."""
    t = case["scalarType"]
    output = filled(t, len(spec["expected"]), SENTINEL)
    ash.run(WORKGROUP_OP[case["workgroupSize"]], workgroups=case["dispatchSize"], output=output,
            op=op, T=SCALAR[t], init=spec["init"], schedule=schedule,
            max_live_workgroups=max_live)
    return output


# -------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("name", list(RMW_OPS))
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_storage_rmw_matches_cts(case, name):
    """CTS atomics,atomic{Add,Sub,Max,Min}:{add,sub,max,min}_storage."""
    spec = case[f"{name}_storage"]
    wgsl, op = RMW_OPS[name]
    assert spec["op"] == wgsl.format(mem="output")
    output = run_storage_test(case, spec, op)
    np.testing.assert_array_equal(output, buffer(case["scalarType"], spec["expected"]))


@pytest.mark.parametrize("name", list(RMW_OPS))
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_workgroup_rmw_matches_cts(case, name):
    """CTS atomics,atomic{Add,Sub,Max,Min}:{add,sub,max,min}_workgroup."""
    spec = case[f"{name}_workgroup"]
    wgsl, op = RMW_OPS[name]
    assert spec["op"] == wgsl.format(mem="wg")
    output = run_workgroup_test(case, spec, op)
    np.testing.assert_array_equal(output, buffer(case["scalarType"], spec["expected"]))


@pytest.mark.parametrize("map_id", list(MAP_ID))
@pytest.mark.parametrize("name", list(BITWISE_OPS))
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_storage_bitwise_matches_cts(case, name, map_id):
    """CTS atomics,atomic{And,Or,Xor}:{and,or,xor}_storage (mapId passthrough and remap)."""
    spec = case[f"{name}_storage[{map_id}]"]
    wgsl, op = BITWISE_OPS[name]
    assert spec["op"] == wgsl.format(mem="output")
    output = run_storage_test(case, spec, op, map_id)
    np.testing.assert_array_equal(output, buffer(case["scalarType"], spec["expected"]))


# ---------------------------------------------------------------- exchange and compare-exchange
async def _exchange_basic(input: ash.Storage, output: ash.Storage, T: ash.Uniform,
                          map_id: ash.Uniform, num_invocations: ash.Uniform, *,
                          global_invocation_id):
    id = T(global_invocation_id.x)
    output[id] = await ash.atomic_exchange(ash.ptr(input, id), map_id(id * 2, num_invocations))


async def _compare_exchange_basic(input: ash.Storage, output: ash.Storage,
                                  exchanged: ash.Storage, T: ash.Uniform, map_id: ash.Uniform,
                                  num_invocations: ash.Uniform, *, global_invocation_id):
    id = T(global_invocation_id.x)
    comp = id if id % 3 == 0 else id + 1
    r = await ash.atomic_compare_exchange_weak(ash.ptr(input, id), comp,
                                               map_id(id * 2, num_invocations))
    output[id] = r.old_value
    exchanged[id] = u32(r.exchanged)


EXCHANGE_BASIC = kernels(_exchange_basic)
COMPARE_EXCHANGE_BASIC = kernels(_compare_exchange_basic)
EXCHANGE_CASES = [c for c in CASES if "exchange_storage_basic[passthrough]" in c]


@pytest.mark.parametrize("map_id", list(MAP_ID))
@pytest.mark.parametrize("case", EXCHANGE_CASES, ids=case_id)
def test_storage_exchange_returns_old_value_and_stores_new(case, map_id):
    """CTS atomics,atomicExchange:exchange_storage_basic."""
    spec = case[f"exchange_storage_basic[{map_id}]"]
    assert spec["op"] == "output[id] = atomicExchange(&input[id], map_id(id * 2))"
    t = case["scalarType"]
    input, output = buffer(t, spec["input_init"]), filled(t, len(spec["input_init"]), SENTINEL)
    ash.run(EXCHANGE_BASIC[case["workgroupSize"]], workgroups=case["dispatchSize"], input=input,
            output=output, T=SCALAR[t], map_id=MAP_ID[map_id],
            num_invocations=case["numInvocations_storage"])
    np.testing.assert_array_equal(output, buffer(t, spec["expected_output"]))
    np.testing.assert_array_equal(input, buffer(t, spec["expected_input_after"]))


@pytest.mark.parametrize("map_id", list(MAP_ID))
@pytest.mark.parametrize("case", EXCHANGE_CASES, ids=case_id)
def test_storage_compare_exchange_weak_exchanges_exactly_when_equal(case, map_id):
    """CTS atomics,atomicCompareExchangeWeak:compare_exchange_weak_storage_basic."""
    spec = case[f"compare_exchange_weak_storage_basic[{map_id}]"]
    assert spec["op"].startswith("comp = (id % 3 == 0) ? id : id + 1; "
                                 "r = atomicCompareExchangeWeak(&input[id], comp, map_id(id * 2))")
    t = case["scalarType"]
    n = len(spec["input_init"])
    input, output = buffer(t, spec["input_init"]), filled(t, n, SENTINEL)
    exchanged = filled("u32", n, SENTINEL)
    ash.run(COMPARE_EXCHANGE_BASIC[case["workgroupSize"]], workgroups=case["dispatchSize"],
            input=input, output=output, exchanged=exchanged, T=SCALAR[t],
            map_id=MAP_ID[map_id], num_invocations=case["numInvocations_storage"])
    np.testing.assert_array_equal(output, buffer(t, spec["expected_old_value"]))
    # asyncshader never fails spuriously, so the "if_no_spurious_failure" expectations are exact
    np.testing.assert_array_equal(exchanged,
                                  buffer("u32", spec["expected_exchanged_if_no_spurious_failure"]))
    np.testing.assert_array_equal(
        input, buffer(t, spec["expected_input_after_if_no_spurious_failure"]))


# ------------------------------------------------------------------------------- wrap-around
def test_storage_sub_u32_wraps_below_zero():
    """CTS atomics,atomicSub:sub_storage (u32: N subtractions of 1 from 0 give 2**32 - N)."""
    case = next(c for c in CASES if c["scalarType"] == "u32" and c["workgroupSize"] == 64
                and c["dispatchSize"] == 16)
    spec = case["sub_storage"]
    output = run_storage_test(case, spec, _sub)
    assert int(output[0]) == spec["expected"][0] == 2**32 - case["numInvocations_storage"]


async def _sub_i32_min(output: ash.Storage, *, global_invocation_id):
    await ash.atomic_sub(ash.ptr(output, 0), i32(-2147483648))


SUB_I32_MIN = ash.compute(workgroup_size=1)(_sub_i32_min)


def test_storage_sub_i32_min_wraps_around():
    """CTS atomics,atomicSub:sub_i32_min (one invocation: 0xffff - i32 min wraps negative)."""
    spec = ATOMICS["wraparound"]["sub_i32_min"]
    assert spec["op"] == "atomicSub(&output[0], -2147483648)"
    output = filled("i32", 2, spec["init"])
    ash.run(SUB_I32_MIN, workgroups=1, output=output)  # runStorageVariableTest(t, 1, 1, 2, ...)
    np.testing.assert_array_equal(output, buffer("i32", spec["expected"]))


# ----------------------------------------------------------------- schedule independence
SCHEDULE_CASES = [c for c in CASES if c["workgroupSize"] in (2, 32) and c["dispatchSize"] == 4]
SEEDS = [1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", SCHEDULE_CASES, ids=case_id)
def test_storage_atomics_do_not_depend_on_the_schedule(case, seed):
    """CTS atomics,atomic{Add,Sub,Max,Min,And,Or,Xor}:*_storage under Random schedules."""
    schedule = ash.Random(seed=seed)
    for name, (_, op) in RMW_OPS.items():
        spec = case[f"{name}_storage"]
        output = run_storage_test(case, spec, op, schedule=schedule, max_live=2)
        np.testing.assert_array_equal(output, buffer(case["scalarType"], spec["expected"]), name)
    for name, (_, op) in BITWISE_OPS.items():
        spec = case[f"{name}_storage[remap]"]
        output = run_storage_test(case, spec, op, "remap", schedule=schedule, max_live=2)
        np.testing.assert_array_equal(output, buffer(case["scalarType"], spec["expected"]), name)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", SCHEDULE_CASES, ids=case_id)
def test_workgroup_atomics_do_not_depend_on_the_schedule(case, seed):
    """CTS atomics,atomic{Add,Sub,Max,Min}:*_workgroup under Random schedules, 2 live groups."""
    for name, (_, op) in RMW_OPS.items():
        spec = case[f"{name}_workgroup"]
        output = run_workgroup_test(case, spec, op, schedule=ash.Random(seed=seed), max_live=2)
        np.testing.assert_array_equal(output, buffer(case["scalarType"], spec["expected"]), name)


# ---------------------------------------------------------- compare-exchange ping-pong (advanced)
ADVANCED = ATOMICS["advanced_cmpxchg"]
NUM_WRITES = 4  # CTS: numWrites = 4
PING_PONG = (24, 68)  # CTS: pingPongValues = [24, 68]
DEFAULT = 99999999  # CTS: old_values and exchanged start filled with defaultValue


def ping_pong_value(i):
    return PING_PONG[i % 2]


async def _cmpxchg_storage_advanced(data: ash.Storage, old_values: ash.Storage,
                                    exchanged: ash.Storage, T: ash.Uniform,
                                    num_invocations: ash.Uniform, *, global_invocation_id):
    id = T(global_invocation_id.x)
    for i in range(NUM_WRITES):
        r = await ash.atomic_compare_exchange_weak(ash.ptr(data, 0), T(ping_pong_value(i)),
                                                   T(ping_pong_value(i + 1)))
        slot = i * num_invocations + u32(id)
        old_values[slot] = r.old_value
        exchanged[slot] = 1 if r.exchanged else 0
        await ash.workgroup_barrier()


wg_cmpxchg_u32 = ash.workgroup(ash.atomic(u32))  # var<workgroup> wg: atomic<u32>
wg_cmpxchg_i32 = ash.workgroup(ash.atomic(i32))  # var<workgroup> wg: atomic<i32>


async def _cmpxchg_workgroup_advanced(old_values: ash.Storage, exchanged: ash.Storage,
                                      T: ash.Uniform, num_invocations: ash.Uniform, *,
                                      local_invocation_index):
    wg = wg_cmpxchg_u32 if T is u32 else wg_cmpxchg_i32
    id = T(local_invocation_index)
    if local_invocation_index == 0:
        await ash.atomic_store(wg, T(PING_PONG[0]))
    await ash.workgroup_barrier()
    for i in range(NUM_WRITES):
        r = await ash.atomic_compare_exchange_weak(wg, T(ping_pong_value(i)),
                                                   T(ping_pong_value(i + 1)))
        slot = i * num_invocations + u32(id)
        old_values[slot] = r.old_value
        exchanged[slot] = 1 if r.exchanged else 0
        await ash.workgroup_barrier()


CMPXCHG_STORAGE_ADVANCED = kernels(_cmpxchg_storage_advanced)
CMPXCHG_WORKGROUP_ADVANCED = kernels(_cmpxchg_workgroup_advanced)
ONLY_WORKGROUP_SIZES = [2**k for k in range(9)]  # CTS onlyWorkgroupSizes: 1, 2, 4, ..., 256


def check_one_winner_per_iteration(old_values, exchanged, n):
    """The JSON's expectation: per iteration exactly one invocation exchanged, with old_value
    pp(i); every other old_value is one of the ping-pong values."""
    assert "exactly one invocation has exchanged=1" in ADVANCED["expected"]
    for w in range(NUM_WRITES):
        ex, old = exchanged[w * n:(w + 1) * n], old_values[w * n:(w + 1) * n]
        winners = np.flatnonzero(ex == 1)
        assert len(winners) == 1, f"write {w}: exchanged={ex.tolist()}"
        assert np.all(ex[ex != 1] == 0)
        assert old[winners[0]] == PING_PONG[w % 2], f"write {w}: old_values={old.tolist()}"
        assert set(np.delete(old, winners[0]).tolist()) <= set(PING_PONG)


@pytest.mark.parametrize("schedule", [None, ash.Random(seed=5)], ids=["in_order", "random5"])
@pytest.mark.parametrize("scalar_type", ["u32", "i32"])
@pytest.mark.parametrize("n", ONLY_WORKGROUP_SIZES)
def test_storage_compare_exchange_ping_pong_has_one_winner_per_iteration(n, scalar_type,
                                                                         schedule):
    """CTS atomics,atomicCompareExchangeWeak:compare_exchange_weak_storage_advanced."""
    data = buffer(scalar_type, [PING_PONG[0]])
    old_values = filled(scalar_type, n * NUM_WRITES, DEFAULT)
    exchanged = filled(scalar_type, n * NUM_WRITES, DEFAULT)
    ash.run(CMPXCHG_STORAGE_ADVANCED[n], workgroups=1, data=data, old_values=old_values,
            exchanged=exchanged, T=SCALAR[scalar_type], num_invocations=n,
            schedule=schedule)
    check_one_winner_per_iteration(old_values, exchanged, n)


@pytest.mark.parametrize("schedule", [None, ash.Random(seed=5)], ids=["in_order", "random5"])
@pytest.mark.parametrize("scalar_type", ["u32", "i32"])
@pytest.mark.parametrize("n", ONLY_WORKGROUP_SIZES)
def test_workgroup_compare_exchange_ping_pong_has_one_winner_per_iteration(n, scalar_type,
                                                                           schedule):
    """CTS atomics,atomicCompareExchangeWeak:compare_exchange_weak_workgroup_advanced."""
    old_values = filled(scalar_type, n * NUM_WRITES, DEFAULT)
    exchanged = filled(scalar_type, n * NUM_WRITES, DEFAULT)
    ash.run(CMPXCHG_WORKGROUP_ADVANCED[n], workgroups=1, old_values=old_values,
            exchanged=exchanged, T=SCALAR[scalar_type], num_invocations=n,
            schedule=schedule)
    check_one_winner_per_iteration(old_values, exchanged, n)
