"""Compute built-in inputs against the WebGPU CTS vectors in
``tests/data/compute_atomics_cases.json`` (``compute_builtins``).

Mirrors ``webgpu:shader,execution,shader_io,compute_builtins:inputs``: every invocation writes its
built-ins to the output slot ``group_index * invocationsPerGroup + local_invocation_index``, then
the test checks the sample invocations listed in the JSON and, over all outputs, the JSON formulas.

The CTS runs each case with the built-ins declared as entry-point parameters ("param"), as members
of a struct parameter ("struct") or a mix of both ("mixed"). WGSL structs are not a thing in
asyncshader: built-ins are always keyword parameters of the ``async def``, so the three methods are
the same test here. Likewise asyncshader has no indirect dispatch, so "direct" and "indirect"
both map to ``run(..., workgroups=dispatch)``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers import DATA_DIR

import asyncshader as ash

DATA = json.loads((DATA_DIR / "compute_atomics_cases.json").read_text())
BUILTINS = DATA["compute_builtins"]
CASES = BUILTINS["cases"]
SENTINEL = 0xDEADBEEF

# Columns of one output record (u32 words).
FIELDS = {
    "local_invocation_id": slice(0, 3),
    "local_invocation_index": 3,
    "global_invocation_id": slice(4, 7),
    "workgroup_id": slice(7, 10),
    "num_workgroups": slice(10, 13),
    "workgroup_index(linear_indexing ext)": 13,
    "global_invocation_index(linear_indexing ext)": 14,
}
WORDS = 15


async def _write_builtins(out: ash.Storage, invocations_per_group: ash.Uniform, *,
                          local_invocation_id, local_invocation_index, global_invocation_id,
                          workgroup_id, num_workgroups, workgroup_index, global_invocation_index):
    # The CTS output slot (JSON formulas.cts_output_slot; its "gid" is the CTS group_id).
    group_index = (workgroup_id.z * num_workgroups.y + workgroup_id.y) * num_workgroups.x \
        + workgroup_id.x
    slot = group_index * invocations_per_group + local_invocation_index
    out[slot] = (*local_invocation_id, local_invocation_index, *global_invocation_id,
                 *workgroup_id, *num_workgroups, workgroup_index, global_invocation_index)


def case_id(case: dict) -> str:
    return "wg{}x{}x{}-dispatch{}x{}x{}".format(*case["workgroup_size"], *case["dispatch"])


def run_case(case: dict) -> np.ndarray:
    size, groups = case["workgroup_size"], case["dispatch"]
    per_group = int(np.prod(size))
    kernel = ash.compute(workgroup_size=tuple(size))(_write_builtins)
    out = np.full((per_group * int(np.prod(groups)), WORDS), SENTINEL, np.uint32)
    ash.run(kernel, workgroups=tuple(groups), out=out, invocations_per_group=per_group)
    return out


@pytest.fixture(scope="module", params=CASES, ids=case_id)
def dispatched(request):
    """(case, outputs): each CTS case dispatched once; the (3,7,5) x (13,9,11) case is 135135
    invocations and takes a second or two."""
    return request.param, run_case(request.param)


def test_sample_invocations_see_the_cts_builtin_values(dispatched):
    """CTS shader_io,compute_builtins:inputs (the sample invocations of the JSON)."""
    case, out = dispatched
    per_group = int(np.prod(case["workgroup_size"]))
    ng = case["dispatch"]
    for sample in case["sample_invocations"]:
        wx, wy, wz = sample["workgroup_id"]
        slot = ((wz * ng[1] + wy) * ng[0] + wx) * per_group + sample["local_invocation_index"]
        record = out[slot]
        for name, cols in FIELDS.items():
            np.testing.assert_array_equal(record[cols], sample[name], f"{name} at slot {slot}")


def test_every_invocation_writes_the_slot_of_the_cts_formula(dispatched):
    """CTS shader_io,compute_builtins:inputs (output slot formula, checked over all outputs)."""
    case, out = dispatched
    wx_, wy_, wz_ = case["workgroup_size"]
    assert not np.any(np.all(out == SENTINEL, axis=1)), "some output slot was never written"
    wid, ng = out[:, FIELDS["workgroup_id"]], out[:, FIELDS["num_workgroups"]]
    lidx = out[:, FIELDS["local_invocation_index"]].astype(np.int64)
    w = wid.astype(np.int64)
    slot = ((w[:, 2] * ng[:, 1] + w[:, 1]) * ng[:, 0] + w[:, 0]) * (wx_ * wy_ * wz_) + lidx
    np.testing.assert_array_equal(slot, np.arange(len(out)))


def test_builtins_satisfy_the_wgsl_formulas_for_every_invocation(dispatched):
    """CTS shader_io,compute_builtins:inputs (JSON formulas, checked over all outputs)."""
    case, out = dispatched
    size = np.array(case["workgroup_size"], np.int64)
    dispatch = np.array(case["dispatch"], np.int64)
    lid = out[:, FIELDS["local_invocation_id"]].astype(np.int64)
    lidx = out[:, FIELDS["local_invocation_index"]].astype(np.int64)
    gid = out[:, FIELDS["global_invocation_id"]].astype(np.int64)
    wid = out[:, FIELDS["workgroup_id"]].astype(np.int64)
    # num_workgroups = dispatch size
    np.testing.assert_array_equal(out[:, FIELDS["num_workgroups"]],
                                  np.broadcast_to(dispatch, (len(out), 3)))
    # 0 <= local_invocation_id < workgroup_size; workgroup_id in [0, num_workgroups)
    assert np.all(lid < size) and np.all(wid < dispatch)
    # local_invocation_index = lx + ly*WX + lz*WX*WY
    np.testing.assert_array_equal(lidx, lid[:, 0] + lid[:, 1] * size[0]
                                  + lid[:, 2] * size[0] * size[1])
    # global_invocation_id = workgroup_id * workgroup_size + local_invocation_id
    np.testing.assert_array_equal(gid, wid * size + lid)
    # workgroup_id = floor(global_invocation_id / workgroup_size)
    np.testing.assert_array_equal(wid, gid // size)
    # linear_indexing extension (WGSL §compute built-ins; spec digest §4.5):
    # workgroup_index = WGi + WGj*gx + WGk*gx*gy,
    # global_invocation_index = CSi + CSj*WX*gx + CSk*WX*gx*WY*gy
    gx, gy, _ = dispatch
    np.testing.assert_array_equal(out[:, FIELDS["workgroup_index(linear_indexing ext)"]],
                                  wid[:, 0] + wid[:, 1] * gx + wid[:, 2] * gx * gy)
    np.testing.assert_array_equal(
        out[:, FIELDS["global_invocation_index(linear_indexing ext)"]],
        gid[:, 0] + gid[:, 1] * size[0] * gx + gid[:, 2] * size[0] * gx * size[1] * gy)
