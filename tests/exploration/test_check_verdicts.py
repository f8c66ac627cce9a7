"""What a check's return value means, read one way by explore, shrink, the command line's
``step`` and ``crosscheck(check=...)``: False fails (numpy's ``np.False_``, what
``result["buf"][0] == 2`` returns, too); True and None pass; anything else is an error that
names the check."""

import io
import sys
import textwrap

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32
from asyncshader._core.verdicts import check_failed
from asyncshader.extra.gpu import CrosscheckError


@ash.compute(workgroup_size=2)
async def lost_update(counter: ash.Storage, tickets: ash.Storage, *,
                      local_invocation_index: u32):
    v = counter[0]
    await atomic_add(ptr(tickets, 0), 1)  # a scheduling point between the load and the store
    counter[0] = v + 1


def setup():
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32)}


def numpy_verdict(result):
    return result["counter"][0] == 2  # an np.bool_


def asserting(result):
    assert result["counter"][0] == 2, "lost update"


def returns_zero(result):
    return 0


def test_numpy_and_python_bools_are_verdicts_and_anything_else_is_an_error():
    assert check_failed(np.False_, numpy_verdict) and check_failed(False, numpy_verdict)
    assert not check_failed(np.True_, numpy_verdict) and not check_failed(True, numpy_verdict)
    assert not check_failed(None, numpy_verdict)
    with pytest.raises(ash.OptionError, match=r"the check returns_zero \(.*test_check_verdicts"
                       r"\.py:\d+\) returned 0 \(a int\).*Fix: return bool"):
        check_failed(0, returns_zero)
    with pytest.raises(TypeError, match=r"array\(\[ True, False\]\).*\(\.\.\.\)\.all\(\)"):
        check_failed(np.array([True, False]), returns_zero)


def test_explore_counts_a_numpy_false_as_a_failure():
    kw = dict(runs=40, stop_on_failure=False, store=None, workers=1)
    by_assert = ash.explore(lost_update, setup, asserting, ash.Random(0), **kw)
    by_numpy = ash.explore(lost_update, setup, numpy_verdict, ash.Random(0), **kw)
    assert by_assert.failures, "Random(0..39) must lose an update for the test to mean much"
    assert [f.run for f in by_numpy.failures] == [f.run for f in by_assert.failures]
    assert by_numpy.failures[0].error == "check returned False"
    assert by_numpy.failing_outcomes == by_assert.failing_outcomes


def test_explore_refuses_a_check_that_returns_neither_a_bool_nor_none():
    with pytest.raises(ash.OptionError, match="the check returns_zero .* returned 0"):
        ash.explore(lost_update, setup, returns_zero, ash.Random(0), runs=3, store=None)


def test_shrink_keeps_a_failure_that_a_numpy_false_reports():
    found = ash.explore(lost_update, setup, asserting, ash.Random(0), runs=40, store=None)
    shrunk = ash.shrink(lost_update, setup, found.failures[0].trace, numpy_verdict)
    assert shrunk.failure == "check"
    replayed = ash.run(lost_update, **setup(), schedule=shrunk.trace, sanitize="off")
    assert replayed["counter"].tolist() == [1]  # the update is lost on the shrunk schedule


KERNEL_FILE = '''
import numpy as np
import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

@ash.compute(workgroup_size=2)
async def racy(counter: ash.Storage, tickets: ash.Storage, *, local_invocation_index: u32):
    v = counter[0]
    await atomic_add(ptr(tickets, 0), 1)
    counter[0] = v + 1

def setup():
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32)}

def check(result):
    return result["counter"][0] == 3  # np.False_ after any schedule (at most 2 updates)
'''


def test_the_cli_step_command_fails_on_a_numpy_false(tmp_path, monkeypatch):
    from asyncshader.tools.cli import main

    (tmp_path / "k.py").write_text(textwrap.dedent(KERNEL_FILE))
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n"))  # run to the end in order
    lines = []
    code = main(["step", str(tmp_path / "k.py") + "::racy"], out=lines.append)
    text = "\n".join(lines)
    assert "counter = [2]" in text
    assert code == 1 and "FAILED: check(result) returned False" in text


@ash.compute(workgroup_size=1)
async def writes_one(out: ash.Storage[u32]):
    out[0] = u32(1)


def test_crosscheck_counts_a_numpy_false_from_check_as_a_difference(crosscheck):
    with pytest.raises(CrosscheckError, match=r"check\(cpu, gpu\) returned False"):
        crosscheck(writes_one, 1, out=np.zeros(1, np.uint32),
                   check=lambda cpu, gpu: gpu["out"][0] == 2)  # np.False_: out[0] is 1
    report = crosscheck(writes_one, 1, out=np.zeros(1, np.uint32), raise_on_difference=False,
                        check=lambda cpu, gpu: gpu["out"][0] == 1)
    assert report.ok
