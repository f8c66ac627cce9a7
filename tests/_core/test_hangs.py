"""A dispatch never hangs and never runs away.

* A loop with no ``await`` (``while flag[0] == 0: pass``) is stopped by the watchdog with a
  ShaderTimeoutError naming the invocation and the line it spins on, on every loop of the
  scheduler, and ``anyio.fail_after`` around ``await dispatch(...)`` stops it too.
* An atomic spin-wait reaches checkpoints, so ``anyio.fail_after`` stops it on the fast paths
  (in-order and random-order rounds, compute and fragments) as on the general loop.
* A spin that can never succeed reaches the default step limit quickly, with flat memory, and the
  error's trace replays to the same error.

Bodies that would hang run in a subprocess with a timeout, so these tests cannot hang.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from helpers import ROOT

import asyncshader as ash
from asyncshader import u32
from asyncshader._core import fast_paths

SCRIPT = textwrap.dedent('''
    import _thread, json, signal, sys, threading
    import anyio, numpy as np
    import asyncshader as ash
    from asyncshader import u32, vec4f

    @ash.compute(workgroup_size=4)
    async def waits(flag: ash.Storage, setter: ash.Uniform, *, local_invocation_index: u32):
        await ash.workgroup_barrier()
        if local_invocation_index == setter:
            flag[0] = 1
        while flag[0] == 0:  # SPIN
            pass

    async def wait_for(flag):
        while flag[0] == 0:  # HELPER SPIN
            pass

    @ash.compute(workgroup_size=2)
    async def waits_in_a_helper(flag: ash.Storage):
        await wait_for(flag)

    @ash.fragment
    async def shades_and_waits(flag: ash.Storage, *, position: vec4f):
        d = await ash.dpdx(position.x)
        while flag[0] == 0:  # FRAGMENT SPIN
            pass
        return d

    @ash.compute(workgroup_size=4)
    async def spins_on_an_atomic(flag: ash.Storage, setter: ash.Uniform):
        while await ash.atomic_load(ash.ptr(flag, 0)) == 0:
            pass

    @ash.fragment
    async def fragment_spins_on_an_atomic(flag: ash.Storage, *, position: vec4f):
        while await ash.atomic_load(ash.ptr(flag, 0)) == 0:
            pass
        return position.x

    class Resumes(ash.Instrument):
        def invocation_resumed(self, inv):
            pass

    def flag():
        return np.zeros(1, np.uint32)

    QUICK = dict(watchdog=0.2)
    NEVER = dict(watchdog=None, max_points_per_invocation=10**9)
    SYNC = {
        "in order": lambda: ash.run(waits, flag=flag(), setter=3, **QUICK),
        "random": lambda: ash.run(waits, flag=flag(), setter=99, schedule=ash.Random(1),
                                  **QUICK),
        "general loop": lambda: ash.run(waits, flag=flag(), setter=99,
                                        instruments=[Resumes()], **QUICK),
        "two live workgroups": lambda: ash.run(waits, 2, flag=flag(), setter=99,
                                               max_live_workgroups=2,
                                               schedule=ash.Random(2), **QUICK),
        "detector off": lambda: ash.run(waits, flag=flag(), setter=3, sanitize="off",
                                        **QUICK),
        "in a helper": lambda: ash.run(waits_in_a_helper, flag=flag(), **QUICK),
        "fragments": lambda: ash.run_fragments(shades_and_waits, 4, 4, flag=flag(), **QUICK),
        "fragments, random": lambda: ash.run_fragments(shades_and_waits, 4, 4, flag=flag(),
                                                       schedule=ash.Random(3), **QUICK),
    }
    ASYNC = {  # (what, schedule, options)
        "fail_after, no watchdog": (waits, None, dict(watchdog=None)),
        "fail_after, default watchdog": (waits, None, {}),
        "fail_after, fragments": (shades_and_waits, None, dict(watchdog=None)),
        "atomic spin, in order": (spins_on_an_atomic, None, NEVER),
        "atomic spin, random": (spins_on_an_atomic, ash.Random(0), NEVER),
        "atomic spin, fragments": (fragment_spins_on_an_atomic, None, NEVER),
        "atomic spin, fragments, random": (fragment_spins_on_an_atomic, ash.Random(0), NEVER),
    }

    async def cancelled_by_fail_after(kernel, schedule, options):
        with anyio.fail_after(0.3):
            if isinstance(kernel, ash.FragmentShader):
                await ash.dispatch_fragments(kernel, 4, 4, flag=flag(), schedule=schedule,
                                             **options)
            else:
                await ash.dispatch(kernel, flag=flag(), setter=99, schedule=schedule,
                                   **options)

    def report(case, call):
        try:
            call()
            outcome = ("finished", "")
        except BaseException as exc:
            outcome = (type(exc).__name__, "\\n".join([str(exc), *getattr(exc, "__notes__", ())]))
        print(json.dumps([case, *outcome]), flush=True)

    def interrupted_by_ctrl_c():
        # a terminal's ctrl-c: Python's own SIGINT handler, also when this script was started
        # from a background job, which inherits SIGINT ignored (interrupt_main then does nothing)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(0.3, _thread.interrupt_main).start()
        ash.run(waits, flag=flag(), setter=3, watchdog=None)

    SYNC["ctrl-c"] = interrupted_by_ctrl_c
    for case, call in SYNC.items():
        report(case, call)
    for backend in ("asyncio", "trio"):
        for case, args in ASYNC.items():
            report(f"{case}, {backend}",
                   lambda: anyio.run(cancelled_by_fail_after, *args, backend=backend))
''')


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Runs SCRIPT's cases in a subprocess (killed after 90 s, should one hang): case ->
    (error type, message); a case missing from it hung."""
    script = tmp_path_factory.mktemp("hangs") / "hangs.py"
    script.write_text(SCRIPT)
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                              text=True, timeout=90,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})  # this checkout
        out = done.stdout
    except subprocess.TimeoutExpired as timeout:
        out = timeout.stdout.decode() if isinstance(timeout.stdout, bytes) else (
            timeout.stdout or "")
    results = {}
    for line in out.splitlines():
        case, kind, message = json.loads(line)
        results[case] = (kind, message)
    return script, results


def line_of(script, marker):
    for number, text in enumerate(script.read_text().splitlines(), 1):
        if marker in text:
            return number
    raise AssertionError(marker)


@pytest.mark.parametrize("case, marker, who", [
    ("in order", "# SPIN", "local_invocation_index=0"),
    ("random", "# SPIN", "workgroup_id=(0,0,0)"),
    ("general loop", "# SPIN", "local_invocation_index=0"),
    ("two live workgroups", "# SPIN", "global_invocation_id="),
    ("detector off", "# SPIN", "local_invocation_index=0"),
    ("in a helper", "# HELPER SPIN", "local_invocation_index=0"),
    ("fragments", "# FRAGMENT SPIN", "fragment (0,0)"),
    ("fragments, random", "# FRAGMENT SPIN", "fragment ("),
])
def test_a_loop_without_an_await_is_stopped_naming_the_invocation_and_the_line(
        outcomes, case, marker, who):
    """``while flag[0] == 0: pass`` never suspends: on every loop of the scheduler the
    watchdog stops it with the invocation, the file:line it spins on, and the fix."""
    script, results = outcomes
    assert case in results, f"{case}: the dispatch hung"
    kind, message = results[case]
    assert kind == "ShaderTimeoutError", message
    assert f"{script}:{line_of(script, marker)}: while flag[0] == 0:" in message
    assert message.startswith("invocation ") and who in message.split(" ran for ")[0]
    assert "without suspending" in message and "watchdog=0.2 s" in message
    assert "an await is missing" in message and "atomic_load" in message


def test_ctrl_c_in_a_spinning_shader_names_the_invocation(outcomes):
    """Ctrl-C (KeyboardInterrupt) still stops the dispatch at once, as itself; a note says
    which invocation it stopped and where."""
    script, results = outcomes
    assert "ctrl-c" in results, "the dispatch hung"
    kind, message = results["ctrl-c"]
    assert kind == "KeyboardInterrupt"
    assert ("asyncshader: it stopped invocation global_invocation_id=(0,0,0) [workgroup_id="
            in message)
    assert f"{script}:{line_of(script, '# SPIN')}: while flag[0] == 0:" in message


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
@pytest.mark.parametrize("case", [
    "fail_after, no watchdog", "fail_after, default watchdog", "fail_after, fragments",
    "atomic spin, in order", "atomic spin, random", "atomic spin, fragments",
    "atomic spin, fragments, random"])
def test_fail_after_stops_a_spinning_dispatch(outcomes, case, backend):
    """``anyio.fail_after(0.3)`` around ``await dispatch(...)`` raises TimeoutError as usual: a
    spin on an atomic reaches checkpoints on the fast paths too; a loop without an await is
    interrupted by the watchdog at the deadline (with or without a stall limit of its own, and
    before the default 10 s limit)."""
    _, results = outcomes
    name = f"{case}, {backend}"
    assert name in results, f"{name}: the dispatch hung"
    assert results[name][0] == "TimeoutError", results[name]


@pytest.mark.parametrize("value", [0, -1.5, "10", True, float("inf"), float("nan")])
def test_the_watchdog_option_is_validated(value):
    with pytest.raises(ash.DispatchError, match=r"watchdog= must be a positive number of "
                       r"seconds .* got " + repr(value).replace("(", r"\(").replace(")", r"\)")):
        ash.run(spins, flag=np.ones(1, np.uint32), watchdog=value)


@ash.compute(workgroup_size=8)
async def busy(out: ash.Storage, *, local_invocation_index: u32):
    for _ in range(100):
        await ash.atomic_add(ash.ptr(out, 0), 1)
        await ash.workgroup_barrier()


@ash.fragment
async def busy_fragment(*, position: ash.vec4f):
    d = position.x
    for _ in range(20):
        d = await ash.dpdx(d * 1.5)
    return d


@pytest.mark.parametrize("how", ["in order", "random", "general loop", "fragments"])
def test_a_long_dispatch_that_suspends_is_not_stopped(how):
    """The watchdog measures time without suspending, not the dispatch's length: runs much
    longer than a tight limit (10 ms; the watchdog looks every 0.1 s) finish: each step is
    short, and the counters or the running frame change between two looks."""
    if how == "fragments":
        r = ash.run_fragments(busy_fragment, 64, 64, watchdog=0.01)
        assert r.counters.rendezvous == 20 * 32 * 32
        return
    out = np.zeros(1, np.uint32)
    options = {"in order": {}, "random": {"schedule": ash.Random(4)},
               "general loop": {"instruments": [_Resumes()]}}[how]
    r = ash.run(busy, 20, out=out, watchdog=0.01, sanitize="off", **options)
    assert out[0] == 20 * 8 * 100 and r.counters.rendezvous == 20 * 100


class _Resumes(ash.Instrument):
    """Watching resumes forces the general loop."""

    def invocation_resumed(self, inv):
        pass


# ---------------------------------------------------------------------- the step limit
@ash.compute(workgroup_size=2)
async def spins(flag: ash.Storage):
    while await ash.atomic_load(ash.ptr(flag, 0)) == 0:  # the spin
        pass


SPIN_LINE = spins.fn.__code__.co_firstlineno + 2  # (the first line is the decorator's)


@pytest.mark.parametrize("schedule", [ash.InOrder(), ash.Random(0), ash.PCT(0)], ids=repr)
def test_a_spin_that_cannot_finish_stops_at_the_default_limit(schedule):
    """10,000 scheduling points per invocation by default: a spin that can never succeed
    stops in seconds under every strategy (a million would take minutes under Random)."""
    with pytest.raises(ash.StepLimitError) as info:
        ash.run(spins, flag=np.zeros(1, np.uint32), schedule=schedule)
    message = str(info.value)
    assert "passed 10,000 scheduling points without finishing" in message
    assert f"test_hangs.py:{SPIN_LINE}: while await ash.atomic_load" in message
    assert message.startswith("invocation global_invocation_id=")


def test_a_long_spin_keeps_its_memory_flat(monkeypatch):
    """A random-order round's steps leave its queue at checkpoints (every 4,096 steps): however
    long an invocation spins, the queue holds at most that many steps plus the round's members.
    (It held every step of the round: 8 bytes a point, 16 MB for the old default limit, and
    inserting into it cost more the longer it grew.) The trace is what the spin leaves."""
    longest = []
    record = fast_paths._record_round

    def spy(decisions, queue, end, canon):
        longest.append(len(queue))
        return record(decisions, queue, end, canon)

    monkeypatch.setattr(fast_paths, "_record_round", spy)
    with pytest.raises(ash.StepLimitError):
        ash.run(spins, flag=np.zeros(1, np.uint32), schedule=ash.Random(0), sanitize="off",
                max_points_per_invocation=20_000)
    assert len(longest) > 5 and max(longest) <= 4096 + 1 + 2  # (the step at the checkpoint)


@pytest.mark.parametrize("schedule", [ash.Random(0), ash.Random(7), ash.InOrder()], ids=repr)
def test_a_step_limit_s_trace_replays_to_the_same_error(schedule):
    """The error's trace counts every step of the spin's rounds (compacted or not): replayed
    on the general loop it reaches the same error, after the same steps."""
    errors = []
    for strategy in (schedule, None):
        with pytest.raises(ash.StepLimitError) as info:
            ash.run(spins, flag=np.zeros(1, np.uint32), sanitize="off",
                    max_points_per_invocation=6_000,
                    schedule=strategy or ash.Replay(errors[0][1]))
        errors.append((str(info.value), info.value.asyncshader_trace))
    assert errors[0][0] == errors[1][0]
    assert errors[0][1].steps == errors[1][1].steps > 6_000
    assert errors[0][1].decisions == errors[1][1].decisions
