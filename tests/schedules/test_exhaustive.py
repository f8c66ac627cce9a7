"""Exhaustive: the bounded depth-first search of schedules, its preemption bound and its
sleep sets (partial-order reduction), driven by explore()."""

import sys

import pytest
from helpers import private_adds, shared_add, two

import asyncshader as ash

sys.path.insert(0, "examples")
import lost_update as lu


def test_exhaustive_finds_the_lost_update_needing_two_preemptions_and_covers_the_space():
    one = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(1), runs=10_000)
    assert one.complete and not one.failures  # one preemption is not enough
    two_ = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(2), runs=10_000,
                       stop_on_failure=False)
    assert two_.complete and len(two_.failures) == 2  # A or B is the one preempted first
    for f in two_.failures:
        assert "lost update" in f.error
        replayed = ash.run(lu.lost_update, **lu.setup(), sanitize="off", schedule=f.trace_string)
        with pytest.raises(AssertionError):
            lu.check(replayed)
    # partial-order reduction: fewer runs than the plain bounded search, same outcomes
    plain = ash.explore(lu.lost_update, lu.setup, lu.check, ash.Exhaustive(2, por=False),
                        runs=10_000, stop_on_failure=False)
    assert plain.complete and two_.runs < plain.runs
    assert set(plain.outcomes) == set(two_.outcomes)


@pytest.mark.parametrize(("bound", "expected"), [(0, 2), (1, 6), (2, 14), (3, 18), (4, 20)])
def test_exhaustive_counts_match_the_hand_count(bound, expected):
    """Two invocations of 3 steps each (start, add, add + return) interleave in C(6,3) = 20
    ways. An interleaving with s switches has s - 1 preemptions (its last switch comes after
    one invocation returned). Counting interleavings of 3 + 3 steps by blocks: s = 1: 2,
    s = 2: 4, s = 3: 8, s = 4: 4, s = 5: 2; so bounds 0..4 give 2, 6, 14, 18, 20."""
    r = ash.explore(private_adds, two, None, ash.Exhaustive(bound, por=False), runs=100)
    assert r.complete and r.runs == expected and len(r.outcomes) == 1


def test_sleep_sets_prune_commuting_steps_without_losing_outcomes():
    """shared_add: steps (start, add + return) per invocation; 6 interleavings within 2
    preemptions, 2 classes (which add lands first). Sleep sets drop the 2 schedules that only
    reorder the independent start steps behind a continued invocation; the 2 others they
    keep, because moving the sleeping step back would cost a preemption (see Exhaustive)."""
    plain = ash.explore(shared_add, two, None, ash.Exhaustive(2, por=False), runs=100)
    por = ash.explore(shared_add, two, None, ash.Exhaustive(2), runs=100)
    assert (plain.runs, por.runs) == (6, 4) and por.complete
    # with no preemptions allowed, the two classes are exactly the two explored schedules
    assert ash.explore(shared_add, two, None, ash.Exhaustive(0), runs=100).runs == 2


def test_exhaustive_alone_says_to_use_explore():
    with pytest.raises(TypeError, match="use asyncshader.explore"):
        ash.run(shared_add, **two(), schedule=ash.Exhaustive())
