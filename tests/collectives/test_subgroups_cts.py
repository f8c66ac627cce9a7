"""Every case of tests/data/subgroup_cases.json (WebGPU CTS inputs and expected outputs, replayed
on the linear subgroup layout asyncshader uses), at every subgroup size it lists.

The kernels are the CTS's, written in Python: ``if PRED { out[lid] = OP(...) } else { return; }``
for the split tests (inactive outputs keep the CTS sentinel 65471463, or 0 for ballots).
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
from helpers import DATA_DIR

import asyncshader as ash
from asyncshader import f32, i32, u32

CASES = json.loads((DATA_DIR / "subgroup_cases.json").read_text())["tests"]
SENTINEL = 65471463

PREDICATES = {
    "every_even": lambda i, s: i % 2 == 0,
    "every_odd": lambda i, s: i % 2 == 1,
    "lower_half": lambda i, s: i < s // 2,
    "upper_half": lambda i, s: i >= s // 2,
    "first_two": lambda i, s: i == 0 or i == 1,
    "all_active": lambda i, s: True,
}


def test_the_vectors_are_the_digest_s_copy():
    """tests/data/README.md: the file is the digest's copy, byte for byte (sha256 given there)."""
    import hashlib

    digest = hashlib.sha256((DATA_DIR / "subgroup_cases.json").read_bytes()).hexdigest()
    assert digest in (DATA_DIR / "README.md").read_text()


def _expect(values: list) -> np.ndarray:
    return np.array([SENTINEL if v is None else v for v in values], np.uint64)


def _checked(got: np.ndarray, expected: list) -> None:
    """Compares where the CTS checks (``"unchecked"`` entries are skipped)."""
    for lane, want in enumerate(expected):
        if want != "unchecked":
            assert int(got[lane]) == want, (lane, int(got[lane]), want)


# ------------------------------------------------------------------- add / mul: data types
@functools.cache
def _typed_kernel(n: int, name: str):
    op = getattr(ash, name)

    @ash.compute(workgroup_size=n)
    async def k(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        out[local_invocation_index] = await op(inp[local_invocation_index])
    return k


OPS_ADD = ("subgroup_add", "subgroup_exclusive_add", "subgroup_inclusive_add")
OPS_MUL = ("subgroup_mul", "subgroup_exclusive_mul", "subgroup_inclusive_mul")
CTS_NAME = {"subgroup_add": "subgroupAdd", "subgroup_exclusive_add": "subgroupExclusiveAdd",
            "subgroup_inclusive_add": "subgroupInclusiveAdd", "subgroup_mul": "subgroupMul",
            "subgroup_exclusive_mul": "subgroupExclusiveMul",
            "subgroup_inclusive_mul": "subgroupInclusiveMul"}


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.float32, np.float16])
@pytest.mark.parametrize("section,ops,value", [("add_data_types", OPS_ADD, 1),
                                               ("mul_data_types", OPS_MUL, 2)])
def test_add_mul_data_types(section, ops, value, dtype):
    for case in CASES[section]["cases"]:
        n, size = case["wg_threads"], case["model_subgroup_size"]
        for name in ops:
            inp = np.full(n, value, dtype)
            out = np.zeros(n, dtype)
            ash.run(_typed_kernel(n, name), 1, inp=inp, out=out, subgroup_size=size)
            assert out.tolist() == case[CTS_NAME[name]], (n, size, name)


def test_add_data_types_on_vectors():
    """vec2/vec4 of f32 and u32: every component gets the scalar expectation."""
    @ash.compute(workgroup_size=27)
    async def k(out: ash.Storage, *, local_invocation_index: u32):
        v = await ash.subgroup_inclusive_add(ash.vec4f(1.0, 1.0, 1.0, 1.0))
        w = await ash.subgroup_add(ash.vec2u(u32(1), u32(1)))
        out[local_invocation_index, 0] = v.w
        out[local_invocation_index, 1] = w.y

    case = next(c for c in CASES["add_data_types"]["cases"]
                if c["wg_threads"] == 27 and c["model_subgroup_size"] == 16)
    out = np.zeros((27, 2), np.float32)
    ash.run(k, 1, out=out, subgroup_size=16)
    assert out[:, 0].tolist() == case["subgroupInclusiveAdd"]
    assert out[:, 1].tolist() == case["subgroupAdd"]


# ----------------------------------------------------------------------- add / mul: split
@functools.cache
def _split_add_mul(n: int, name: str, pred: str, mul: bool):
    op, test = getattr(ash, name), PREDICATES[pred]

    @ash.compute(workgroup_size=n)
    async def k(out: ash.Storage, *, local_invocation_index: u32, subgroup_invocation_id: u32):
        b = await ash.subgroup_ballot(True)
        count = ash.count_one_bits(b.x) + ash.count_one_bits(b.y) + ash.count_one_bits(
            b.z) + ash.count_one_bits(b.w)
        i = subgroup_invocation_id
        if test(i, count):
            out[local_invocation_index] = await op(i % 4 + 1 if mul else i)
        else:
            return
    return k


@pytest.mark.parametrize("section,ops,mul", [("add_compute_split", OPS_ADD, False),
                                             ("mul_compute_split", OPS_MUL, True)])
def test_add_mul_compute_split(section, ops, mul):
    for case in CASES[section]["cases"]:
        n, size = case["wg_threads"], case["model_subgroup_size"]
        for name in ops:
            out = np.full(n, SENTINEL, np.uint32)
            ash.run(_split_add_mul(n, name, case["predicate"], mul), 1, out=out,
                    subgroup_size=size, sanitize="report")
            assert out.tolist() == _expect(case[CTS_NAME[name]]).tolist(), (
                n, size, case["predicate"], name)


# ------------------------------------------------------ all / any / bitwise / min / max
@functools.cache
def _split_kernel(n: int, names: tuple, pred: str, as_bool: bool):
    # each operation in a variable of its own: the dispatch sees the ones the kernel names
    op0, op1, op2 = [getattr(ash, name) for name in names] + [None] * (3 - len(names))
    test = PREDICATES[pred]

    async def apply(op, x):
        return ash.select(u32(0), u32(1), await op(x != 0)) if as_bool else await op(x)

    @ash.compute(workgroup_size=n)
    async def k(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                subgroup_invocation_id: u32, subgroup_size: u32):
        lid = local_invocation_index
        if not test(subgroup_invocation_id, subgroup_size):
            return
        out[0, lid] = await apply(op0, inp[0, lid])
        if op1 is not None:
            out[1, lid] = await apply(op1, inp[1, lid])
        if op2 is not None:
            out[2, lid] = await apply(op2, inp[2, lid])
    return k


def _run_split(n, names, pred, size, inputs, as_bool=False):
    inp = np.array(inputs, np.uint32).reshape(len(names), n)
    out = np.full((len(names), n), SENTINEL, np.uint32)
    ash.run(_split_kernel(n, tuple(names), pred, as_bool), 1, inp=inp, out=out,
            subgroup_size=size, sanitize="report")
    return out


@pytest.mark.parametrize("section,name", [("all_compute", "subgroup_all"),
                                          ("any_compute", "subgroup_any")])
def test_all_any(section, name):
    for case in CASES[section]["cases"]:
        n = case["wg_threads"]
        for s_key, by_pred in case["results"].items():
            for pred, expected in by_pred.items():
                out = _run_split(n, [name], pred, int(s_key[2:]), case["inputs"], True)
                assert out[0].tolist() == _expect(expected).tolist(), (n, s_key, pred)


@pytest.mark.parametrize("section,names", [
    ("bitwise_compute", ("subgroupAnd", "subgroupOr", "subgroupXor")),
    ("minmax_compute_u32", ("subgroupMin", "subgroupMax"))])
def test_bitwise_and_min_max(section, names):
    py = [{"subgroupAnd": "subgroup_and", "subgroupOr": "subgroup_or",
           "subgroupXor": "subgroup_xor", "subgroupMin": "subgroup_min",
           "subgroupMax": "subgroup_max"}[n] for n in names]
    for case in CASES[section]["cases"]:
        n = case["wg_threads"]
        inputs = [case["inputs"][name] for name in names]
        for s_key, by_op in case["results"].items():
            for pred in by_op[names[0]]:
                out = _run_split(n, py, pred, int(s_key[2:]), inputs)
                for j, name in enumerate(names):
                    assert out[j].tolist() == _expect(by_op[name][pred]).tolist(), (
                        n, s_key, pred, name)


def test_bitwise_data_types():
    """``OP(T(lid + 0x7fff000f))`` for u32 and i32 scalars and vectors."""
    base = CASES["bitwise_data_types"]
    for case in base["cases"]:
        n, size = case["wg_threads"], case["model_subgroup_size"]
        for kind in (u32, i32):
            @ash.compute(workgroup_size=n)
            async def k(out: ash.Storage, *, local_invocation_index: u32, _kind=kind):
                v = _kind(u32(local_invocation_index + u32(0x7FFF000F)))
                out[0, local_invocation_index] = u32(await ash.subgroup_and(v))
                out[1, local_invocation_index] = u32(await ash.subgroup_or(v))
                vec = await ash.subgroup_xor(ash.vec4u(u32(v), u32(v), u32(v), u32(v)))
                out[2, local_invocation_index] = vec.z

            out = np.zeros((3, n), np.uint32)
            ash.run(k, 1, out=out, subgroup_size=size)
            assert out[0].tolist() == case["subgroupAnd"]
            assert out[1].tolist() == case["subgroupOr"]
            assert out[2].tolist() == case["subgroupXor"]


def test_min_max_data_types():
    """The CTS's typed min/max pairs (u32, i32, f32 bit patterns) on a 4-wide workgroup."""
    section = CASES["minmax_data_types"]
    kinds = {"u32": (np.uint32, u32), "i32": (np.int32, i32), "f32": (np.float32, f32)}

    @ash.compute(workgroup_size=4)
    async def k(vals: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        lid = local_invocation_index
        out[0, lid] = await ash.subgroup_min(vals[lid])
        out[1, lid] = await ash.subgroup_max(vals[lid])

    for case in section["cases"]:
        if case["type"] not in kinds:
            continue
        dtype, _ = kinds[case["type"]]
        bits = [int(case["input2_bits"], 16)] * 4
        bits[case["idx1"]] = int(case["input1_bits"], 16)
        vals = np.array(bits, np.uint32).view(dtype)
        out = np.zeros((2, 4), dtype)
        ash.run(k, 1, vals=vals, out=out, subgroup_size=4)
        got = out.view(np.uint32)
        assert got[0].tolist() == [int(case["expected_min_bits_all_invocations"], 16)] * 4
        assert got[1].tolist() == [int(case["expected_max_bits_all_invocations"], 16)] * 4


# ------------------------------------------------------------------------------- ballot
def test_ballot():
    sec = CASES["ballot"]

    @functools.cache
    def kernel(pred: str, mode: str, cond: str | None = None):
        test = PREDICATES[pred] if pred in PREDICATES else None

        @ash.compute(workgroup_size=128)
        async def k(out: ash.Storage, *, local_invocation_index: u32,
                    subgroup_invocation_id: u32, subgroup_size: u32):
            i, s = subgroup_invocation_id, subgroup_size
            if mode == "split":
                if test(i, s):
                    out[local_invocation_index] = await ash.subgroup_ballot(True)
            else:
                out[local_invocation_index] = await ash.subgroup_ballot(bool(test(i, s)))
        return k

    for pred, by_size in sec["split_per_lid_vec4"].items():
        for s_key, expected in by_size.items():
            out = np.zeros((128, 4), np.uint32)
            ash.run(kernel(pred, "split"), 1, out=out, subgroup_size=int(s_key[2:]),
                    sanitize="report")
            assert out.tolist() == expected, (pred, s_key)
    for pred, by_size in sec["predicate_all_invocations_vec4"].items():
        for s_key, expected in by_size.items():
            out = np.zeros((128, 4), np.uint32)
            ash.run(kernel(pred, "predicate"), 1, out=out, subgroup_size=int(s_key[2:]))
            assert out.tolist() == [expected] * 128, (pred, s_key)


def test_ballot_predicate_and_control_flow():
    """``if COND { out[lid] = subgroupBallot(PRED) }`` with the CTS's WGSL conditions."""
    sec = CASES["ballot"]["predicate_and_control_flow"]

    def wgsl(expr: str):  # the CTS's conditions use id, subgroupSize, &&, ||, %, /
        py = expr.replace("&&", " and ").replace("||", " or ").replace("/", "//").replace(
            "!", " not ").replace(" not =", "!=")
        return eval(f"lambda id, lid, subgroupSize: {py}")

    for name, by_size in sec.items():
        for s_key, case in by_size.items():
            cond, pred = wgsl(case["cond"]), wgsl(case["pred"])

            @ash.compute(workgroup_size=128)
            async def k(out: ash.Storage, *, local_invocation_index: u32,
                        subgroup_invocation_id: u32, subgroup_size: u32, _c=cond, _p=pred):
                i, s = int(subgroup_invocation_id), int(subgroup_size)
                lid = int(local_invocation_index)
                if _c(i, lid, s):
                    out[lid] = await ash.subgroup_ballot(bool(_p(i, lid, s)))

            out = np.zeros((128, 4), np.uint32)
            ash.run(k, 1, out=out, subgroup_size=int(s_key[2:]), sanitize="report")
            assert out.tolist() == case["per_lid"], (name, s_key)


# -------------------------------------------------------------------------------- elect
def test_elect():
    @functools.cache
    def kernel(n: int, key: str):
        bound = int(key.split(">=")[1]) if ">=" in key else None
        test = PREDICATES[key] if bound is None else (lambda i, s: i >= bound)

        @ash.compute(workgroup_size=n)
        async def k(out: ash.Storage, *, local_invocation_index: u32,
                    subgroup_invocation_id: u32, subgroup_size: u32):
            if test(subgroup_invocation_id, subgroup_size):
                out[local_invocation_index] = ash.select(u32(0), u32(1),
                                                         await ash.subgroup_elect())
        return k

    for case in CASES["elect"]["cases"]:
        n, size = case["wg_threads"], case["model_subgroup_size"]
        for key, expected in case["results"].items():
            out = np.full(n, SENTINEL, np.uint32)
            ash.run(kernel(n, key), 1, out=out, subgroup_size=size, sanitize="report")
            assert out.tolist() == _expect(expected).tolist(), (n, size, key)


# ---------------------------------------------------------------------------- broadcast
def test_broadcast():
    @functools.cache
    def kernel(n: int, key: str):
        parts = key.split(":")
        pred = "all_active" if parts[0] == "all_active" else parts[1]
        which = parts[-1] if parts[0] != "broadcastFirst_split" else "subgroupBroadcastFirst"
        test = PREDICATES[pred]
        src = None if which == "subgroupBroadcastFirst" else int(which.split("_")[1])

        @ash.compute(workgroup_size=n)
        async def k(out: ash.Storage, *, local_invocation_index: u32,
                    subgroup_invocation_id: u32, subgroup_size: u32):
            lid = local_invocation_index
            if test(subgroup_invocation_id, subgroup_size):
                out[lid] = (await ash.subgroup_broadcast_first(lid) if src is None
                            else await ash.subgroup_broadcast(lid, src))
        return k

    for case in CASES["broadcast"]["cases"]:
        n, size = case["wg_threads"], case["model_subgroup_size"]
        for key, expected in case["results"].items():
            out = np.full(n, SENTINEL, np.uint32)
            ash.run(kernel(n, key), 1, out=out, subgroup_size=size, sanitize="report")
            _checked(out, [SENTINEL if v is None else v for v in expected])


def test_broadcast_workgroup_uniform_load():
    """The CTS's subgroupBroadcastFirst of a value only invocation 0 loaded."""
    sec = CASES["broadcast"]["workgroup_uniform_load_test"]
    wg = ash.workgroup(u32)

    @ash.compute(workgroup_size=4)
    async def k(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32,
                subgroup_invocation_id: u32, which: u32):
        lid = local_invocation_index
        if lid == which:
            wg.value = inp[lid]
        await ash.workgroup_barrier()
        v = u32(0)
        if subgroup_invocation_id == 0:
            v = wg.value
        out[lid] = await ash.subgroup_broadcast_first(v) | await ash.subgroup_broadcast(v, 0)

    for which in sec["input_id"]:
        out = np.zeros(4, np.uint32)
        ash.run(k, 1, inp=np.array(sec["inputs"], np.uint32), out=out, which=u32(which),
                subgroup_size=4)
        assert out.tolist() == [sec["inputs"][which]] * 4


# ------------------------------------------------------------------------------ shuffle
@functools.cache
def _shuffle_kernel(n: int):
    @ash.compute(workgroup_size=n)
    async def k(inp: ash.Storage, out: ash.Storage, *, local_invocation_index: u32):
        lid = local_invocation_index
        v = inp[lid]
        first = await ash.subgroup_broadcast_first(v)
        out[0, lid] = await ash.subgroup_shuffle(lid, v)
        out[1, lid] = await ash.subgroup_shuffle_xor(lid, first)
        out[2, lid] = await ash.subgroup_shuffle_up(lid, first)
        out[3, lid] = await ash.subgroup_shuffle_down(lid, first)
    return k


def test_shuffle_compute_all_active():
    names = ("subgroupShuffle", "subgroupShuffleXor", "subgroupShuffleUp", "subgroupShuffleDown")
    for case in CASES["shuffle_compute_all_active"]["cases"]:
        n = case["wg_threads"]
        for s_key, by_op in case["results"].items():
            out = np.zeros((4, n), np.uint32)
            r = ash.run(_shuffle_kernel(n), 1, inp=np.array(case["inputs"], np.uint32),
                        out=out, subgroup_size=int(s_key[2:]), sanitize="report")
            for j, name in enumerate(names):
                _checked(out[j], by_op[name])
            unchecked = sum(v == "unchecked" for name in names for v in by_op[name])
            # every unchecked (indeterminate) read is reported; nothing else is
            reported = sum(f.count for f in r.findings if isinstance(f, ash.IndeterminateValue))
            assert reported == unchecked, (n, s_key)


def test_shuffle_fixed_cases():
    sec = CASES["shuffle_fixed"]
    ids = {"no_shuffle": lambda i, inp: i, "broadcast": lambda i, inp: inp[2],
           "rotate_1_up": lambda i, inp: 3 if i == 0 else i - 1,
           "rotate_2_down": lambda i, inp: (i + 2) % 4, "reversed": lambda i, inp: 4 - i - 1,
           "clamped": lambda i, inp: min(max(i + 2, 1), 3)}
    deltas = {"no_shuffle": lambda inp: 0, "dynamic_1": lambda inp: inp[1],
              "override_2": lambda inp: 2}
    masks = {"no_shuffle": lambda inp: 0, "dynamic_1": lambda inp: inp[1],
             "override_2": lambda inp: 2, "expr_3": lambda inp: inp[1] + inp[2]}

    def run(body):
        @ash.compute(workgroup_size=4)
        async def k(inp: ash.Storage, out: ash.Storage, *, subgroup_invocation_id: u32):
            out[subgroup_invocation_id] = await body(subgroup_invocation_id, inp)
        out = np.zeros(4, np.uint32)
        ash.run(k, 1, inp=np.array(sec["input"], np.uint32), out=out, subgroup_size=4,
                sanitize="report")
        return out

    for name, case in sec["shuffle_id_cases"].items():
        out = run(lambda i, inp, f=ids[name]: ash.subgroup_shuffle(inp[i], f(i, inp)))
        assert out.tolist() == case["expected"], name
    for name, case in sec["shuffle_up_down_cases"].items():
        if name == "cts_quirk":
            continue
        up = run(lambda i, inp, f=deltas[name]: ash.subgroup_shuffle_up(inp[i], f(inp)))
        down = run(lambda i, inp, f=deltas[name]: ash.subgroup_shuffle_down(inp[i], f(inp)))
        _checked(up, case["up"])
        _checked(down, case["down"])
    for name, case in sec["shuffle_xor_cases"].items():
        out = run(lambda i, inp, f=masks[name]: ash.subgroup_shuffle_xor(inp[i], f(inp)))
        assert out.tolist() == case["expected"], name
