"""The race detector sees memory read or written through numpy's API, not only through indexing
and arithmetic: methods (``buf.copy()``, ``buf.fill(0)``), functions (``np.dot``,
``np.copyto``) and ``ufunc.at``. A shader that reads a buffer with ``buf.tolist()`` while
another invocation writes it races exactly as one that reads ``buf[1]``."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import u32

#: reads of element 1 (among others) of a 1-D float32 buffer of 4 elements
READS = {
    "copy()": lambda b: b.copy(),
    "tolist()": lambda b: b.tolist(),
    "item(1)": lambda b: b.item(1),
    "astype()": lambda b: b.astype(np.float64),
    "flatten()": lambda b: b.flatten(),
    "tobytes()": lambda b: b.tobytes(),
    "dot()": lambda b: b.dot(b),
    "np.dot": lambda b: np.dot(b, b),
    "np.copy": lambda b: np.copy(b),
    "np.concatenate": lambda b: np.concatenate([b, b]),
    "np.array_equal": lambda b: np.array_equal(b, b),
    "np.sort": lambda b: np.sort(b),
    "sum()": lambda b: b.sum(),
    "slice copy": lambda b: b[0:2].copy(),
}

#: writes of element 1 (among others)
WRITES = {
    "fill(0)": lambda b: b.fill(0),
    "sort()": lambda b: b.sort(),
    "put()": lambda b: b.put([1], 3),
    "np.copyto": lambda b: np.copyto(b, 2),
    "np.put": lambda b: np.put(b, [1], 3),
    "np.add.at": lambda b: np.add.at(b, [1], 1),
    "np.negative(out=)": lambda b: np.negative(b, out=b),
    "row view fill": lambda b: b[1:3].fill(7),
}


def _kernel(first, second):
    @ash.compute(workgroup_size=2)
    async def k(buf: ash.Storage, *, local_invocation_index: u32):
        if local_invocation_index == 0:
            first(buf)
        else:
            second(buf)
    return k


def _store(b):
    b[1] = 5


def _load(b):
    return b[1]


def _races_on_element_1(result):
    races = [f for f in result.findings if isinstance(f, ash.DataRace)]
    return [r for r in races if r.memory == "buf" and 1 in (r.elements or [r.index])]


@pytest.mark.parametrize("op", READS.values(), ids=READS.keys())
def test_a_read_through_numpy_races_with_a_plain_store(op):
    buf = np.zeros(4, np.float32)
    r = ash.run(_kernel(_store, op), buf=buf, sanitize="report")
    assert any(f.race == "read-write" for f in _races_on_element_1(r)), r.findings


@pytest.mark.parametrize("op", WRITES.values(), ids=WRITES.keys())
def test_a_write_through_numpy_races_with_a_plain_load(op):
    buf = np.zeros(4, np.float32)
    r = ash.run(_kernel(_load, op), buf=buf, sanitize="report")
    assert any(f.race == "read-write" for f in _races_on_element_1(r)), r.findings


@pytest.mark.parametrize("op", WRITES.values(), ids=WRITES.keys())
def test_two_writes_through_numpy_race_write_write(op):
    buf = np.zeros(4, np.float32)
    r = ash.run(_kernel(_store, op), buf=buf, sanitize="report")
    assert any(f.race == "write-write" for f in _races_on_element_1(r)), r.findings


def test_reads_of_other_elements_through_numpy_do_not_race():
    # precise, not the whole buffer: element 1's store does not race with reads of 2 and 3
    reads = [lambda b: b[2:4].copy(), lambda b: b.item(3), lambda b: b[2:].tolist(),
             lambda b: np.dot(b[2:], b[2:])]
    for op in reads:
        r = ash.run(_kernel(_store, op), buf=np.zeros(4, np.float32), sanitize="report")
        assert not r.findings, r.findings


def test_numpy_writes_still_land_and_reads_still_see_the_values():
    buf = np.arange(4, dtype=np.float32)
    got = {}

    def reads(b):
        got["list"], got["dot"] = b.tolist(), float(np.dot(b, b))

    def writes(b):
        np.add.at(b, [0, 0], 1)

    ash.run(_kernel(reads, lambda b: None), buf=buf, sanitize="report")
    assert got == {"list": [0.0, 1.0, 2.0, 3.0], "dot": 14.0}
    ash.run(_kernel(writes, lambda b: None), buf=buf, sanitize="report")
    assert buf.tolist() == [2.0, 1.0, 2.0, 3.0]


#: views made without indexing stay watched, and know where their elements live
VIEWS = {
    "reshape": lambda b: b.reshape(2, 2).__setitem__((0, 1), 5),
    "np.reshape": lambda b: np.reshape(b, (2, 2)).__setitem__((0, 1), 5),
    "reshape.T": lambda b: b.reshape(2, 2).T.__setitem__((1, 0), 5),
    "np.ravel of a view": lambda b: np.ravel(b[1:3]).__setitem__(0, 5),
    "view(dtype)": lambda b: b.view(np.uint32).__setitem__(1, 7),
    "reversed": lambda b: b[::-1].__setitem__(2, 5),
}


@pytest.mark.parametrize("op", VIEWS.values(), ids=VIEWS.keys())
def test_a_store_through_a_view_made_by_numpy_is_seen_at_the_right_element(op):
    buf = np.zeros(4, np.float32)
    r = ash.run(_kernel(_load, op), buf=buf, sanitize="report")
    assert any(f.race == "read-write" for f in _races_on_element_1(r)), r.findings
    assert buf[1] != 0  # the store landed, in the caller's array


def test_a_view_of_a_non_contiguous_binding_maps_its_elements_through_the_binding():
    backing = np.zeros(8, np.float32)
    buf = backing[::2]  # elements 0, 2, 4, 6 of the backing array: buf[1] is backing[2]
    r = ash.run(_kernel(_load, VIEWS["reshape"]), buf=buf, sanitize="report")
    assert any(f.race == "read-write" for f in _races_on_element_1(r)), r.findings
    assert backing.tolist() == [0, 0, 5, 0, 0, 0, 0, 0]


# ------------------------------------------------------------------------ workgroup memory
shared = ash.workgroup(ash.array(ash.f32, 4))


@ash.compute(workgroup_size=2)
async def shared_fill_and_read(out: ash.Storage, *, local_invocation_index: u32):
    if local_invocation_index == 0:
        shared.fill(1)
    else:
        out[0] = sum(shared.tolist())


def test_workgroup_memory_filled_and_read_through_numpy_races():
    r = ash.run(shared_fill_and_read, out=np.zeros(1, np.float32), sanitize="report")
    races = [f for f in r.findings if isinstance(f, ash.DataRace) and f.memory == "shared"]
    assert races and races[0].race == "read-write", r.findings


# --------------------------------------------------------------------- fragment helpers
@ash.fragment
async def helpers_fill(buf: ash.Storage, *, position: ash.vec4f):
    if position.x < 1:
        ash.discard()  # column 0: demoted to helpers
    if position.x < 1 or position.x > 3:  # the discarded column and the padding column x = 3
        buf.fill(9)
        np.copyto(buf, 9)
        buf.sort()
    return position.x


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_a_helper_invocation_cannot_write_storage_through_numpy(sanitize):
    buf = np.array([3, 2, 1, 0], np.float32)
    r = ash.run_fragments(helpers_fill, 3, 2, buf=buf, sanitize=sanitize)  # 3 wide: padded to 4
    assert buf.tolist() == [3, 2, 1, 0]  # WGSL: a helper's stores have no effect
    assert r.mask.tolist() == [[False, True, True]] * 2
