"""Shrinking a failing schedule."""

import sys

import pytest

import asyncshader as ash

sys.path.insert(0, "examples")
import lost_update as lu


def test_shrinking_a_random_failure_reduces_preemptions_and_still_fails_on_replay(monkeypatch):
    monkeypatch.setattr(lu, "WORK", 4)  # less work first: random finds it in a few runs
    # (from seed 100, the first failure switches back and forth: 6 preemptions where 2 do)
    report = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Random(100), runs=50_000)
    failing = report.failures[0].trace
    before = ash.schedule_stats(lu.lost_update, lu.setup, failing)
    s = ash.shrink(lu.lost_update, lu.setup, failing, lu.check)
    assert s.before == before and s.before.preemptions > 2
    assert s.after.preemptions == 2  # the bug needs exactly two
    assert s.after.context_switches < s.before.context_switches
    assert s.failure == "check"
    replayed = ash.run(lu.lost_update, **lu.setup(), sanitize="off", schedule=s.trace.to_string())
    with pytest.raises(AssertionError, match="lost update"):
        lu.check(replayed)
    assert "->" in s.summary()


def test_shrinking_a_passing_trace_is_refused():
    passing = ash.run(lu.lost_update, **lu.setup(), sanitize="off").trace
    with pytest.raises(ValueError, match="does not fail"):
        ash.shrink(lu.lost_update, lu.setup, passing, lu.check)
