"""A Python kernel's multi-dimensional index under Lockstep (which runs ``to_wgsl``'s WGSL):
each dimension is bounded as numpy bounds it, as under the coroutine schedules: an index
past the end of its row is out of bounds (a dropped store, a zero load, an OutOfBounds
finding), never an access of the next row."""

import numpy as np

import asyncshader as ash
from asyncshader import f32, i32, u32


@ash.compute(workgroup_size=8)
async def past_the_row(img, src, *, local_invocation_index: u32):
    x = local_invocation_index
    img[u32(0), x] = f32(1.0) + src[u32(0), x + u32(1)]
    img[i32(2), i32(x) - 2] = f32(7.0)


def run(schedule):
    img = np.zeros((3, 5), np.float32)
    src = np.arange(15, dtype=np.float32).reshape(3, 5)
    result = ash.run(past_the_row, 1, schedule=schedule, sanitize="report", img=img, src=src)
    return img, result.findings


def test_an_index_past_its_row_is_dropped_under_lockstep_as_under_in_order():
    expected = [[2, 3, 4, 5, 1], [0] * 5, [7] * 5]  # (x = 4 loads src[0, 5]: zero)
    for schedule in (ash.InOrder(), ash.Lockstep()):
        img, _ = run(schedule)
        assert img.tolist() == expected, schedule


def test_its_out_of_bounds_findings_are_the_same_under_lockstep_and_in_order():
    """src[0, 5..8] loaded by invocations 4..7; img[0, 5..7] stored by 5..7, img[2, -2],
    img[2, -1] and img[2, 5] by 0, 1 and 7."""
    found = []
    for schedule in (ash.InOrder(), ash.Lockstep()):
        _, findings = run(schedule)
        found.append(sorted((type(f).__name__, f.memory, f.access.kind, f.access.line, f.count)
                            for f in findings))
    line = past_the_row.fn.__code__.co_firstlineno
    assert found[0] == sorted([("OutOfBounds", "src", "load", line + 3, 4),
                               ("OutOfBounds", "img", "store", line + 3, 3),
                               ("OutOfBounds", "img", "store", line + 4, 3)])
    assert found[1] == found[0]
