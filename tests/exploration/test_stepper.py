"""The stepper (asyncshader.stepper): the caller picks which invocation runs next, undoes, lets
a strategy choose, sees positions, memory and findings; its trace replays to the same result."""

import io
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from helpers import ROOT

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32, vec3u, workgroup_barrier

tile = ash.workgroup(ash.array(u32, 4))


@ash.compute(workgroup_size=2)
async def racy(counter: ash.Storage, tickets: ash.Storage, *, local_invocation_index: u32):
    v = counter[0]
    await atomic_add(ptr(tickets, 0), 1)  # a scheduling point inside the read-modify-write
    counter[0] = v + 1


@ash.compute(workgroup_size=4)
async def rotate(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = i + 10
    await workgroup_barrier()  # BARRIER LINE
    out[i] = tile[(i + 1) % 4]


@ash.compute(workgroup_size=4)
async def branchy(out: ash.Storage, *, local_invocation_index: u32):
    i = local_invocation_index
    tile[i] = i
    if i < 2:
        await workgroup_barrier()
    out[i] = tile[(i + 1) % 4]


def _counters():
    return {"counter": np.zeros(1, np.uint32), "tickets": np.zeros(1, np.uint32)}


def _line_of(marker: str) -> int:
    lines = open(__file__, encoding="utf-8").read().splitlines()
    return next(n for n, text in enumerate(lines, 1) if marker in text and "def " not in text)


def test_picks_interleave_a_lost_update():
    s = ash.stepper(racy, 1, sanitize="report", **_counters())
    assert s.runnable == [0, 1]
    s.pick(0).pick(1)  # both load 0 and stop before their atomic (it lands when resumed)
    assert s.memory["counter"].tolist() == [0] and s.memory["tickets"].tolist() == [0]
    s.pick(0).pick(1)  # both store 0 + 1
    assert s.done and s.error is None
    assert s.result["counter"].tolist() == [1]  # one update lost
    assert [f.race for f in s.findings] == ["read-write", "write-write"]


def test_in_order_picks_lose_nothing():
    s = ash.stepper(racy, 1, **_counters())
    s.pick(0).pick(0).pick(1).pick(1)
    assert s.result["counter"].tolist() == [2]


def test_the_trace_replays_to_the_same_outputs():
    for seed in range(4):
        s = ash.stepper(racy, 1, **_counters()).pick(1).run_with(ash.Random(seed))
        again = ash.run(racy, 1, schedule=s.trace, sanitize="report", **_counters())
        assert again["counter"].tolist() == s.result["counter"].tolist()
        assert again.counters.decisions == s.result.counters.decisions
    # the hand-picked lost update, replayed: still lost
    s = ash.stepper(racy, 1, **_counters()).pick(0).pick(1).pick(0).pick(1)
    again = ash.run(racy, 1, schedule=ash.Replay(s.trace), sanitize="report", **_counters())
    assert again["counter"].tolist() == [1]


def test_undo_comes_back_to_the_same_state():
    s = ash.stepper(racy, 1, **_counters()).pick(0).pick(1).pick(0)
    assert s.memory["counter"].tolist() == [1]
    s.undo()
    assert s.steps == 2 and s.memory["counter"].tolist() == [0]
    assert [v.line for v in s.invocations] == [_line_of("a scheduling point inside")] * 2
    s.pick(1).pick(0)  # the other order from here: still lost
    assert s.result["counter"].tolist() == [1]
    s.undo(4)
    assert s.steps == 0 and not s.done and s.runnable == [0, 1]
    assert [v.state for v in s.invocations] == ["not started", "not started"]


def test_positions_barriers_and_workgroup_memory():
    s = ash.stepper(rotate, 1, out=np.zeros(4, np.uint32))
    s.pick(2).pick(0)
    views = {v.number: v for v in s.invocations}
    assert views[2].state == "at workgroup_barrier" and views[0].state == "at workgroup_barrier"
    assert views[2].line == _line_of("BARRIER LINE")
    assert views[2].source == "await workgroup_barrier()  # BARRIER LINE"
    assert views[1].state == "not started" and views[1].runnable
    assert s.runnable == [1, 3]
    assert s.memory["tile"].tolist() == [10, 0, 12, 0]
    text = s.show()
    assert "#2   at workgroup_barrier" in text and "tile = [10  0 12  0]" in text
    shown = []  # what IPython and Jupyter print for `s` alone in a cell
    s._repr_pretty_(type("Printer", (), {"text": lambda self, t: shown.append(t)})(), False)
    assert shown == [text]
    assert repr(s) == "<Stepper test_stepper.rotate step 2: runnable [1, 3]>"
    with pytest.raises(ash.StepperError, match=r"#2: it is at workgroup_barrier.*#1, #3"):
        s.pick(2)
    s.pick(3).pick(1)  # the last one arrives: all four are released
    assert s.runnable == [0, 1, 2, 3]
    s.finish()
    assert s.result["out"].tolist() == [11, 12, 13, 10]


def test_a_barrier_in_a_branch_stops_the_run_and_its_trace_reproduces_it():
    s = ash.stepper(branchy, 1, out=np.zeros(4, np.uint32))
    s.pick(0).pick(1).pick(2)
    assert not s.done
    s.pick(3)
    assert s.done and isinstance(s.error, ash.BarrierDivergenceError)
    assert "BarrierDivergenceError" in s.show()
    with pytest.raises(ash.BarrierDivergenceError):
        ash.run(branchy, 1, schedule=s.trace, out=np.zeros(4, np.uint32))


def test_sanitize_error_ends_the_run_with_the_race_and_its_trace():
    s = ash.stepper(racy, 1, sanitize="error", **_counters()).finish()
    assert s.done and isinstance(s.error, ash.DataRaceError) and s.result is None
    with pytest.raises(ash.DataRaceError):
        ash.run(racy, 1, schedule=s.trace, sanitize="error", **_counters())


def test_the_callers_arrays_are_never_written():
    out = np.zeros(4, np.uint32)
    s = ash.stepper(rotate, 1, out=out).finish()
    assert s.result["out"].tolist() == [11, 12, 13, 10] and out.tolist() == [0, 0, 0, 0]


def test_run_with_counts_steps_and_mistakes_are_explained():
    s = ash.stepper(rotate, 1, out=np.zeros(4, np.uint32))
    with pytest.raises(ash.StepperError, match="not finished.*s.finish"):
        s.trace  # noqa: B018
    with pytest.raises(ash.StepperError, match="#9: no live invocation"):
        s.pick(9)
    with pytest.raises(ash.StepperError, match="cannot undo 1 step"):
        s.undo()
    s.run_with(ash.Reverse(), steps=3)
    assert s.steps == 3 and s.runnable == [0]
    assert [v.state for v in s.invocations][1:] == ["at workgroup_barrier"] * 3
    s.finish()
    with pytest.raises(ash.StepperError, match="the run is over"):
        s.pick(0)


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
    assert result["counter"][0] == 2, "lost update"
'''


def _cli(args, stdin, cwd):
    return subprocess.run([sys.executable, "-m", "asyncshader", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_cli_step_reads_choices_from_stdin(tmp_path):
    (tmp_path / "k.py").write_text(textwrap.dedent(KERNEL_FILE))
    trace = tmp_path / "t.json"
    done = _cli(["step", "k.py::racy", "--trace", str(trace)], "0\n1\n7\n0\n1\n", tmp_path)
    assert done.returncode == 1, done.stderr
    assert "cannot pick invocation #7" in done.stdout
    assert "counter = [1]" in done.stdout and "FAILED: check failed" in done.stdout
    replayed = _cli(["replay", str(trace)], "", tmp_path)
    assert "FAILED: check failed: AssertionError: lost update" in replayed.stdout


def test_cli_step_undo_random_and_end_of_input(tmp_path, monkeypatch):
    from asyncshader.tools.cli import main

    (tmp_path / "k.py").write_text(textwrap.dedent(KERNEL_FILE))

    def step(commands):
        lines = []
        monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
        code = main(["step", str(tmp_path / "k.py") + "::racy"], out=lines.append)
        return code, "\n".join(lines)

    code, text = step("0\nu\n\n")  # in, out, the lowest; then the end of input
    assert code == 0 and "stopped after 1 steps (not finished: no trace)" in text
    code, text = step("c\n")  # in order: right by luck, but the detector sees the race
    assert "counter = [2]" in text
    assert code == 1 and "FAILED: the race detector found 2 error(s)" in text
    code, text = step("r 5 1\nbogus\nq\n")  # Random(5) for one step; help; quit
    assert code == 0 and "commands (one per line)" in text and "step 1" in text

pair = ash.workgroup(ash.array(u32, 2))


@ash.compute(workgroup_size=2)
async def swap_pairs(out: ash.Storage, *, local_invocation_index: u32, workgroup_id: vec3u):
    i = local_invocation_index
    pair[i] = i + 10 * workgroup_id.x + 1
    await workgroup_barrier()
    out[workgroup_id.x * 2 + i] = pair[1 - i]


def test_two_live_workgroups_show_their_own_workgroup_memory():
    s = ash.stepper(swap_pairs, 2, max_live_workgroups=2, out=np.zeros(4, np.uint32))
    s.pick(3).pick(0)  # one invocation of each workgroup stores, then waits
    mem = s.memory
    assert mem["pair@0"].tolist() == [1, 0] and mem["pair@1"].tolist() == [0, 12]
    assert s.runnable == [1, 2]
    s.run_with("pct")  # a strategy name works too
    assert s.result["out"].tolist() == [2, 1, 12, 11]


@ash.compute(workgroup_size=2)
async def spin(flag: ash.Storage, *, local_invocation_index: u32):
    while flag[0] == 0:  # SPIN LINE: no await, never ends
        pass


def test_a_loop_without_await_is_stopped_by_the_watchdog_not_hung():
    s = ash.stepper(spin, 1, watchdog=0.3, flag=np.zeros(1, np.uint32))
    s.pick(1)
    assert s.done and isinstance(s.error, ash.ShaderTimeoutError)
    assert f":{_line_of('SPIN LINE')}:" in str(s.error)


def test_fragment_shaders_are_refused_with_a_reason():
    @ash.fragment
    async def shade(*, position):
        return position.x

    with pytest.raises(ash.StepperError, match="fragment shader; the stepper runs compute"):
        ash.stepper(shade)
    with pytest.raises(ash.StepperError, match="no schedule=: you are the schedule"):
        ash.stepper(rotate, 1, schedule=ash.Random(1), out=np.zeros(4, np.uint32))


# ------------------------------------------------------------------ what the stepper refuses
@ash.compute(workgroup_size=4)
async def lanes(out: ash.Storage, *, local_invocation_index: u32, subgroup_size: u32):
    out[local_invocation_index] = subgroup_size


def test_subgroup_size_is_an_option_of_the_stepper_as_of_run():
    s = ash.stepper(lanes, 1, subgroup_size=4, out=np.zeros(4, np.uint32)).finish()
    assert s.result["out"].tolist() == [4, 4, 4, 4]
    with pytest.raises(ash.OptionError, match="subgroup_size must be a power of two"):
        ash.stepper(lanes, 1, subgroup_size=3, out=np.zeros(4, np.uint32))


@pytest.mark.parametrize("call, message", [
    (lambda s: s.pick(True), r"number must be a non-negative int, got True \(a bool\)"),
    (lambda s: s.pick(0.0), r"number must be a non-negative int, got 0.0 \(a float\); "
                            r"write number=0"),
    (lambda s: s.pick("1"), r"number must be a non-negative int, got '1' \(a str\)"),
    (lambda s: s.undo("1"), r"steps must be an int, got '1' \(a str\); write steps=1"),
    (lambda s: s.run_with(steps="2"), r"steps must be a non-negative int or None, got '2'"),
    (lambda s: s.run_with(steps=-3), r"steps must be a non-negative int or None, got -3$"),
    (lambda s: s.run_with(steps=1.0), r"steps must be a non-negative int or None, got 1.0"),
])
def test_a_bad_argument_is_refused_naming_it_and_nothing_runs(call, message):
    s = ash.stepper(rotate, 1, out=np.zeros(4, np.uint32))
    s.pick(0)
    with pytest.raises(ash.OptionError, match=message):
        call(s)
    assert s.steps == 1 and s.runnable == [1, 2, 3]


def test_a_numpy_integer_picks_as_an_int_does():
    s = ash.stepper(rotate, 1, out=np.zeros(4, np.uint32))
    s.pick(np.int64(2)).pick(np.uint32(0))
    assert s.steps == 2 and s.runnable == [1, 3]


def test_a_trace_of_another_kernel_is_refused_naming_both():
    other = ash.run(lanes, out=np.zeros(4, np.uint32), schedule=ash.Random(1)).trace
    s = ash.stepper(rotate, 1, out=np.zeros(4, np.uint32))
    with pytest.raises(ash.ReplayMismatchError,
                       match=r"recorded for kernel test_stepper\.lanes, not test_stepper\.rotate"):
        s.run_with(other)
    assert s.steps == 0
    own = ash.run(rotate, out=np.zeros(4, np.uint32), schedule=ash.Random(1)).trace
    assert s.run_with(own).done and s.result["out"].tolist() == [11, 12, 13, 10]
