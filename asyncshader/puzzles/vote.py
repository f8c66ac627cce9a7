"""Puzzle 9: a subgroup vote (needs the subgroup built-ins: subgroup_any, subgroup_all)."""

from __future__ import annotations

from typing import Any

import numpy as np

import asyncshader as ash

from .basics import starter
from .checker import Puzzle

f32, u32 = np.float32, np.uint32

#: whether this asyncshader has the subgroup built-ins the puzzle needs
AVAILABLE = hasattr(ash, "subgroup_any") and hasattr(ash, "subgroup_all")

VOTE = """A subgroup vote: the invocations of a subgroup (8 of them here: subgroup_size=8) vote
without any memory. out[i] = 1 if every element a[g] of i's subgroup is positive, 2 if some are
and some are not, 0 if none is. Use `await subgroup_all(p)` and `await subgroup_any(p)`: each
returns the same answer to every invocation of the subgroup, and, like a barrier, every
invocation of the subgroup must call it."""


def _vote_setup() -> dict[str, Any]:
    a = np.array([1, 2, 3, 4, 5, 6, 7, 8, 1, -2, 3, 4, 5, 6, 7, 8,
                  -1, -2, -3, -4, -5, -6, -7, -8, 0, 0, 0, 0, 0, 0, 0, 0], f32)
    return {"a": a, "out": np.zeros(32, u32), "workgroups": 1, "subgroup_size": 8}


def _vote_expected(b: dict[str, Any]) -> dict[str, np.ndarray]:
    votes = []
    for block in b["a"].reshape(4, 8):
        positive = block > 0
        votes += [1 if positive.all() else 2 if positive.any() else 0] * 8
    return {"out": np.array(votes, u32)}


P9 = Puzzle(9, "a subgroup vote", "vote", VOTE, starter(VOTE, """
    from asyncshader import subgroup_all, subgroup_any


    @ash.compute(workgroup_size=32)
    async def vote(a: ash.Storage, out: ash.Storage, *, global_invocation_id: vec3u):
        g = global_invocation_id.x
        positive = a[g] > 0
        # your code: out[g] = 1, 2 or 0
    """), _vote_setup, _vote_expected, needs=None if AVAILABLE else "subgroups")
