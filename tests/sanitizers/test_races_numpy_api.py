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


def _buffer_survives_helpers(shader, sanitize):
    """Runs ``shader`` on a 3x2 grid (padded to 4 wide: a column of helpers) over a buffer and
    checks the buffer is as it was: WGSL gives a helper's stores no effect."""
    buf = np.array([3, 2, 1, 0], np.float32)
    r = ash.run_fragments(shader, 3, 2, buf=buf, sanitize=sanitize)
    assert buf.tolist() == [3, 2, 1, 0]
    return r


@pytest.mark.parametrize("sanitize", ["off", "report"])
def test_a_helper_invocation_cannot_write_storage_through_numpy(sanitize):
    r = _buffer_survives_helpers(helpers_fill, sanitize)
    assert r.mask.tolist() == [[False, True, True]] * 2


# ------------------------------------------------- copies, views, out= and the rarer numpy paths
def _run2(first, second, buf, sanitize="report"):
    return ash.run(_kernel(first, second), buf=buf, sanitize=sanitize)


def _races_at(result, element):
    return [f for f in result.findings if isinstance(f, ash.DataRace) and element in f.elements]


def test_a_fancy_index_copy_of_a_2d_buffer_is_private_and_precise():
    def store(b):
        b[3, 3] = 1.0

    def columns(b):
        return b[:, [0, 2]].sum()  # a copy: columns 0 and 2 read, (3, 3) not

    assert not _run2(store, columns, np.zeros((4, 4), np.float32)).findings


def test_nested_lists_of_managed_arrays_reach_numpy_as_plain_arrays():
    got = {}

    def blocks(b):
        got["block"] = np.block([[b, b]]).tolist()

    for sanitize in ("off", "report"):
        _run2(blocks, lambda b: None, np.arange(2, dtype=np.float32), sanitize)
        assert got["block"] == [[0.0, 1.0, 0.0, 1.0]]


def test_views_with_other_element_sizes_report_every_element_they_cover():
    backing = np.zeros((8, 4), np.float32)

    def byte_store(b):
        b.view(np.uint8)[0, 4] = 1  # a byte of element (0, 1) of a strided binding

    r = _run2(lambda b: b[0, 1], byte_store, backing[::2])
    assert any(f.race == "read-write" for f in _races_at(r, (0, 1))), r.findings

    def wide_store(b):
        b.view(np.float64)[1] = 1.0  # float32 elements 2 and 3

    r = _run2(lambda b: b[3], wide_store, np.zeros(4, np.float32))
    assert _races_at(r, 3), r.findings


@pytest.mark.parametrize("op", [
    lambda b: np.clip(b, 0, 1, out=b),
    lambda b: np.round(b, 0, b),  # out= given by position
    lambda b: np.cumsum(b, out=b),
    lambda b: np.dot(b[0:2], b[0:2], out=b[1:2].reshape(())),
], ids=["clip out=", "round positional out", "cumsum out=", "dot out="])
def test_writes_through_out_are_stores(op):
    r = _run2(lambda b: b[1], op, np.full(4, 0.5, np.float32))
    assert any(f.race == "read-write" for f in _races_at(r, 1)), r.findings


def test_functions_returning_views_read_nothing_and_their_views_stay_watched():
    def split_store(b):
        _lo, hi = np.split(b, 2)
        hi[1] = 7  # buf[3]

    r = _run2(lambda b: b.__setitem__(0, 1), split_store, np.zeros(4, np.float32))
    assert not _races_at(r, 0), r.findings  # np.split read nothing
    r = _run2(lambda b: b[3], split_store, np.zeros(4, np.float32))
    assert _races_at(r, 3), r.findings

    def astype_view_store(b):
        b.astype(np.float32, copy=False)[3] = 7  # numpy hands back the array itself

    r = _run2(lambda b: b[3], astype_view_store, np.zeros(4, np.float32))
    assert _races_at(r, 3), r.findings


def test_shape_and_type_queries_read_nothing():
    def queries(b):
        np.zeros_like(b), np.full_like(b, 2), np.can_cast(b, np.float64), np.shape(b)

    assert not _run2(lambda b: b.__setitem__(1, 5), queries, np.zeros(4, np.float32)).findings


def test_writing_functions_write_only_the_elements_they_write():
    def diagonal(b):
        np.fill_diagonal(b, 1)
        np.putmask(b, np.eye(4, dtype=bool), 2)
        np.place(b, np.eye(4, dtype=bool), [3])
        np.copyto(b, 4, where=np.eye(4, dtype=bool))
        np.put(b, ind=[5], v=6)  # (1, 1), by keyword

    r = _run2(lambda b: b[0, 1], diagonal, np.zeros((4, 4), np.float32))
    assert not r.findings, r.findings
    r = _run2(lambda b: b[2, 2], diagonal, np.zeros((4, 4), np.float32))
    assert any(f.race == "read-write" for f in _races_at(r, (2, 2))), r.findings


def test_item_follows_numpy_for_negative_and_bad_indices():
    got = {}

    def items(b):
        got["item"] = b.item(-1, 0)

    for sanitize in ("off", "report"):
        _run2(items, lambda b: None, np.arange(8, dtype=np.float32).reshape(4, 2), sanitize)
        assert got["item"] == 6.0
    r = _run2(items, lambda b: b.__setitem__((3, 0), 1), np.zeros((4, 2), np.float32))
    assert _races_at(r, (3, 0)), r.findings
    with pytest.raises(ash.ShaderError, match="IndexError"):
        _run2(lambda b: b.item(9), lambda b: None, np.zeros(4, np.float32))


def test_printing_a_buffer_in_a_shader_is_not_an_out_of_bounds_access(capsys):
    r = _run2(lambda b: print(b, repr(b)), lambda b: None, np.arange(4, dtype=np.float32))
    assert not r.findings, r.findings
    assert "[0. 1. 2. 3.]" in capsys.readouterr().out


def test_flat_reads_and_writes_are_seen():
    r = _run2(lambda b: b.flat[5], lambda b: b.flat.__setitem__(5, 9),
              np.zeros((2, 4), np.float32))
    assert any(f.race == "read-write" for f in _races_at(r, (1, 1))), r.findings


@ash.fragment
async def helper_writes_through_views(buf: ash.Storage, *, position: ash.vec4f):
    if position.x > 3:  # the padding column of a 3-wide grid: helpers
        np.reshape(buf, (2, 2))[0, 0] = 9
        np.split(buf, 2)[1][0] = 9
        np.clip(buf, 9, 9, out=buf)
        buf.flat[1] = 9
    return position.x


# ------------------------------------------------------ out=, flat and views over views
def test_out_comes_back_as_the_managed_array_and_stays_watched():
    got = {}

    def clip(b):
        got["same"] = np.clip(b, 0, 1, out=b) is b
        r = np.sum(np.ones((2, 2), np.float32), axis=0, out=b[2:4])
        r[1] = 7  # buf[3], through what np.sum returned

    r = _run2(lambda b: b[3], clip, np.zeros(4, np.float32))
    assert got["same"] and _races_at(r, 3), r.findings


def test_an_input_overlapping_out_is_still_read():
    def sums(b):
        np.sum(b.reshape(2, 4), axis=0, out=b[0:4])  # reads all eight

    r = _run2(lambda b: b.__setitem__(6, 1), sums, np.zeros(8, np.float32))
    assert _races_at(r, 6), r.findings


@ash.fragment
async def helpers_write_through_positional_out(buf: ash.Storage, *, position: ash.vec4f):
    if position.x > 3:  # the padding column: helpers
        r = np.round(np.full(4, 1.25, np.float32), 1, buf)  # out by position
        assert r is buf  # numpy returns out, whatever the helper's write became
        buf.take([0, 0, 0, 0], out=buf)
    return position.x


@pytest.mark.parametrize("sanitize", ["off", "report"])
@pytest.mark.parametrize("shader", [helper_writes_through_views,
                                    helpers_write_through_positional_out],
                         ids=["views, out=, flat", "positional out, take(out=)"])
def test_a_helper_cannot_write_through_views_out_or_flat(shader, sanitize):
    _buffer_survives_helpers(shader, sanitize)  # and a positional out comes back unchanged


def test_flat_behaves_like_numpys_flat_iterator():
    got = {}

    def flats(b):
        it = b.flat
        got["first"] = next(it)
        got["second"] = next(it)
        got["copy"] = b.flat.copy().tolist()
        got["eq"] = (b.flat == 2).tolist()
        got["mask"] = b.flat[np.arange(4) > 1].tolist()
        b.flat = [7, 8]

    buf = np.arange(4, dtype=np.float32)
    for sanitize in ("off", "report"):
        buf[:] = np.arange(4)
        _run2(flats, lambda b: None, buf, sanitize)
        assert got == {"first": 0.0, "second": 1.0, "copy": [0.0, 1.0, 2.0, 3.0],
                       "eq": [False, False, True, False], "mask": [2.0, 3.0]}
        assert buf.tolist() == [7, 8, 7, 8]
    r = _run2(lambda b: b.__setitem__(3, 1), lambda b: b.flat[np.arange(4) > 2].tolist(),
              np.zeros(4, np.float32))
    assert _races_at(r, 3), r.findings
    r = _run2(lambda b: b.__setitem__(1, 1), lambda b: b.flat[np.arange(4) > 2].tolist(),
              np.zeros(4, np.float32))
    assert not r.findings, r.findings  # the mask selects element 3 only


def test_sub_views_of_wide_views_cover_every_element():
    def store(b):
        b.view(np.float64)[1:][0] = 1.0  # float32 elements 2 and 3

    r = _run2(lambda b: b[3], store, np.zeros(4, np.float32))
    assert _races_at(r, 3), r.findings


def test_more_writes_and_reads_that_bypass_indexing():
    r = _run2(lambda b: b[1], lambda b: b.take([0], out=b[1:2]), np.zeros(4, np.float32))
    assert _races_at(r, 1), r.findings
    r = _run2(lambda b: b[1], lambda b: np.nan_to_num(b, copy=False), np.zeros(4, np.float32))
    assert _races_at(r, 1), r.findings
    r = _run2(lambda b: b.__setitem__(1, 1), lambda b: np.trim_zeros(b),
              np.zeros(4, np.float32))
    assert _races_at(r, 1), r.findings  # trim_zeros reads the values to choose its view
    r = _run2(lambda b: b.__setitem__((1, 1), 1), lambda b: np.diag_indices_from(b),
              np.zeros((4, 4), np.float32))
    assert not r.findings, r.findings  # only the shape


def test_flat_indexing_a_huge_broadcast_view_numbers_nothing():
    from asyncshader.wgsl import managed

    def big(b):
        return np.broadcast_to(b[0:1], (200_000_000,)).flat[5]

    _run2(big, lambda b: None, np.zeros(4, np.float32))
    assert managed._COUNTING.size <= managed._COUNTING_KEPT
