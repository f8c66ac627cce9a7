"""The array side of Lockstep's race detector (:mod:`.races`): one memory's records as arrays,
the conflicts among them by the coroutine detector's rule (``sanitizers/shadow.py``: the last
access of a group of one line and kind at a word, the last by another invocation, the last
from another workgroup decide every conflict), found with sorts and run starts, and what of
the records later accesses can still conflict with."""

from __future__ import annotations

import numpy as np

#: record kinds
WRITE, READ, ATOMIC_WRITE, ATOMIC_READ = 0, 1, 2, 3
IS_WRITE = np.array([True, False, True, False])
IS_ATOMIC = np.array([False, False, True, True])


def gather(records: list[tuple], kept: dict | None = None) -> dict[str, np.ndarray]:
    """One memory's records as arrays (one entry per access), in order, after ``kept`` (what
    an earlier check kept of the records before them: :func:`summary`)."""
    sizes = [r[1].size for r in records]
    out = {
        "addr": np.concatenate([r[0] for r in records]),
        "key": np.concatenate([r[1] for r in records]),
        "phase": np.concatenate([r[2] for r in records]),
        "site": np.repeat(np.array([r[3] for r in records], np.int64), sizes),
        "kind": np.repeat(np.array([r[4] for r in records], np.int64), sizes),
        "order": np.concatenate([r[6] for r in records]),
        "value": np.concatenate([r[5] if r[5] is not None else np.zeros(r[1].size, np.uint32)
                                 for r in records]),
    }
    if kept is not None:
        out = {k: np.concatenate([kept[k], v]) for k, v in out.items()}
    return out


class _Cells:
    """Records ``a`` sorted by cell (one group of one line and kind at one word) and, within
    a cell, by order (``by``: the record index at each sorted place), with where each sorted
    place's cell, run of one invocation and run of one workgroup start (``n``: the
    invocations of a workgroup)."""

    def __init__(self, a: dict[str, np.ndarray], n: int) -> None:
        _, self.word = np.unique(a["addr"], return_inverse=True)
        self.groups, group = np.unique(a["site"] * 4 + a["kind"], return_inverse=True)
        cell = self.word.astype(np.int64) * self.groups.size + group
        self.by = by = np.lexsort((np.arange(cell.size), cell))
        self.scell, self.skey = scell, skey = cell[by], a["key"][by]
        self.swg = swg = skey // n
        self.pos = pos = np.arange(cell.size)
        self.new_cell = new_cell = np.r_[True, scell[1:] != scell[:-1]]
        self.cell_start = np.maximum.accumulate(np.where(new_cell, pos, 0))
        self.key_start = np.maximum.accumulate(
            np.where(new_cell | np.r_[True, skey[1:] != skey[:-1]], pos, 0))
        self.wg_start = np.maximum.accumulate(
            np.where(new_cell | np.r_[True, swg[1:] != swg[:-1]], pos, 0))


def summary(a: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
    """What later accesses can conflict with, of records ``a``: per word and group of one
    line and kind, the last access, the last by another invocation and the last from another
    workgroup (shadow.py: the three that decide every later conflict), in order."""
    c = _Cells(a, n)
    cell_start, key_start, wg_start, by = c.cell_start, c.key_start, c.wg_start, c.by
    ends = np.flatnonzero(np.r_[c.scell[1:] != c.scell[:-1], True])
    other, far = key_start[ends] - 1, wg_start[ends] - 1
    kept = np.concatenate([ends, other[other >= cell_start[ends]],
                           far[far >= cell_start[ends]]])
    chosen = np.unique(by[kept])  # (by record index: in order)
    return {k: v[chosen] for k, v in a.items()}


def conflicts(a: dict[str, np.ndarray], n: int) -> tuple[np.ndarray, ...]:
    """Every (access, group of accesses of one line and kind at its word) pair where some
    earlier access of the group conflicts with the access: the access indices, the
    conflicting earlier accesses' indices (by the L, O, G rule of shadow.py, over sorted
    arrays) and whether one of the conflicting earlier accesses is from another workgroup.
    ``a``'s records are in order (:func:`gather`), so a record's index is its place in the
    order."""
    # only a word that some access writes and two invocations touch can hold a race
    word = a["addr"]
    words = int(word.max()) + 1
    if words > 8 * word.size + 1024:  # (sparse addresses: numbered densely first)
        _, word = np.unique(word, return_inverse=True)
        words = int(word.max()) + 1
    written = np.zeros(words, bool)
    written[word[IS_WRITE[a["kind"]]]] = True
    some = np.full(words, -1, np.int64)
    some[word] = a["key"]  # (one of the word's invocations)
    several = np.zeros(words, bool)
    several[word[a["key"] != some[word]]] = True
    maybe = (written & several)[word]
    if not maybe.any():
        empty = np.zeros(0, np.int64)
        return empty, empty, np.zeros(0, bool)
    chosen = np.flatnonzero(maybe)
    alpha, beta, cross = _conflicts({k: v[chosen] for k, v in a.items()}, n)
    return chosen[alpha], chosen[beta], cross


def _conflicts(a: dict[str, np.ndarray], n: int) -> tuple[np.ndarray, ...]:
    """:func:`conflicts` on the records of the words that may race."""
    key, phase, kinds = a["key"], a["phase"], a["kind"]
    count = key.size
    wg = key // n
    c = _Cells(a, n)
    word, groups, by, scell, skey, swg = c.word, c.groups, c.by, c.scell, c.skey, c.swg
    pos, new_cell = c.pos, c.new_cell
    cell_start, key_start, wg_start = c.cell_start, c.key_start, c.wg_start
    # each access against every cell of its word
    cells = scell[new_cell]
    cell_word = cells // groups.size
    first_cell = np.searchsorted(cell_word, np.arange(word.max() + 1))
    per_word = np.diff(np.r_[first_cell, cells.size])
    many = per_word[word]
    alpha = np.repeat(pos, many)
    offset = pos.repeat(0) if not alpha.size else \
        np.arange(alpha.size) - np.repeat(np.cumsum(many) - many, many)
    against = cells[np.repeat(first_cell[word], many) + offset]
    # not both atomic, one a write
    theirs = groups[against % groups.size] % 4
    mine = kinds[alpha]
    fit = ~(IS_ATOMIC[mine] & IS_ATOMIC[theirs]) & (IS_WRITE[mine] | IS_WRITE[theirs])
    alpha, against = alpha[fit], against[fit]
    # L: the cell's last access before the access
    code = scell * count + by
    last = np.searchsorted(code, against * count + alpha) - 1
    has = last >= 0
    has[has] = scell[last[has]] == against[has]
    alpha, last = alpha[has], last[has]
    tk, tw, tp = key[alpha], wg[alpha], phase[alpha]
    beta = np.full(alpha.size, -1, np.int64)
    lk, lw, lp = skey[last], swg[last], phase[by[last]]
    direct = (lk != tk) & ((lw != tw) | (lp == tp))
    beta[direct] = last[direct]
    # O: the last before L's run by another invocation (when L is the access's own)
    other = key_start[last] - 1
    ok_o = (beta < 0) & (lk == tk) & (other >= cell_start[last])
    oo = np.where(ok_o, other, 0)
    ok_o &= (swg[oo] != tw) | (phase[by[oo]] == tp)
    beta[ok_o] = other[ok_o]
    # G: the last before L's run from another workgroup
    far = wg_start[last] - 1
    ok_g = (beta < 0) & (far >= cell_start[last])
    ff = np.where(ok_g, far, 0)
    ok_g &= swg[ff] != tw
    beta[ok_g] = far[ok_g]
    hit = beta >= 0
    # whether some earlier access of the cell from another workgroup conflicts too (the
    # accesses of different workgroups always conflict): ``same_workgroup`` is False as soon
    # as the pair of lines races between workgroups, whichever access the order names
    cross = (lw != tw) | (far >= cell_start[last])
    return alpha[hit], by[beta[hit]], cross[hit]


def same_value(a: dict, i: int) -> bool:
    """Whether the store ``i`` stored what the plain store before it at its word stored."""
    word = a["addr"][i]
    before = np.flatnonzero((a["addr"] == word) & (a["kind"] == WRITE)
                            & (a["order"] < a["order"][i]))
    if not before.size:
        return False
    previous = before[np.argmax(a["order"][before])]
    return bool(a["value"][previous] == a["value"][i])
