"""The pytest plugin: run a test's dispatches under many schedules, and replay a failing one.

Installed with asyncshader (entry point ``pytest11``), so it loads by itself::

    @pytest.mark.schedules(runs=200, strategy="pct")
    def test_histogram():
        counts = np.zeros(16, np.uint32)
        ash.run(histogram, data=make_data(), counts=counts)   # no schedule= given
        assert counts.sum() == 1024

The test body runs ``runs`` times; every dispatch made in it with ``schedule=None`` gets the
next schedule of the strategy (``"random"``, ``"pct"``, ``"reverse"``, ``"in_order"``;
``"lockstep"``: ``ash.Lockstep()``, one deterministic run whatever ``runs`` says). Run
``r`` uses seed ``--asyncshader-seed + r``. On failure the traces of that run's dispatches are
saved under ``.asyncshader/`` and the failure report ends with one line that reproduces it::

    pytest 'tests/test_h.py::test_histogram' --asyncshader-replay=ash1:histogram:...

Works for ``async def`` tests under ``@pytest.mark.anyio`` too (the body is awaited ``runs``
times). Fixtures are set up once per test, not per run: make fresh buffers in the body.

It also collects WGSL test files (``test_*.wgsl``, ``*.test.wesl``: :mod:`.wgsl_items`), whose
``@test`` functions run on the CPU in wgsl-test's conventions.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from ..errors import ReplayMismatchError, TraceError
from ..exploration.explore import Recorded
from ..exploration.store import default_store, set_failure_store
from ..sanitizers.findings import render_findings
from ..sanitizers.races import DEFAULT_FINDINGS, DEFAULT_SANITIZE
from ..schedules.names import dispatcher
from ..schedules.strategies import (
    DEFAULT_SCHEDULE,
    PCT,
    InOrder,
    Random,
    Replay,
    Reverse,
    Strategy,
)
from ..schedules.trace import Trace
from .wgsl_items import (
    WGSLItem,
    pytest_collect_file,  # noqa: F401  (a hook: WGSL @test files)
)
from .wgsl_items import add_options as _wgsl_test_options

_STRATEGIES = ("random", "pct", "reverse", "in_order", "lockstep")


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("asyncshader", "asyncshader schedule exploration")
    group.addoption("--asyncshader-replay", default=None, metavar="TRACE",
                    help="replay the schedule(s) of a failing run of a @pytest.mark.schedules "
                         "test: a trace string (several joined by ','), or a file holding one")
    group.addoption("--asyncshader-seed", default=None, type=int, metavar="N",
                    help="base seed of @pytest.mark.schedules runs (run r uses N + r, its "
                         "dispatch j the strategy seed (N + r) * 1009 + j; "
                         "default 0)")
    group.addoption("--asyncshader-store", default=None, metavar="FOLDER",
                    help="where failing schedules are stored and replayed first on the next "
                         "run (explore() and @pytest.mark.schedules tests): a folder, or off "
                         "(default: $ASYNCSHADER_STORE, else .asyncshader/failures)")
    _wgsl_test_options(parser)


def pytest_configure(config: Any) -> None:
    store = config.getoption("--asyncshader-store", None)
    if store is not None:
        set_failure_store(None if store.strip().lower() in ("off", "none", "") else store)
    config.addinivalue_line(
        "markers",
        "schedules(runs=100, strategy='random', depth=3, seed=None, races=True): run the test's "
        "asyncshader dispatches (those with schedule=None) under `runs` schedules of "
        "`strategy` (random, pct, reverse, in_order; lockstep: one run in lockstep)")
    config.addinivalue_line(
        "markers", "workgroup_size(x, y=1, z=1): a WGSL @test function runs as one workgroup "
        "of this size (wgsl-test runs one invocation)")


class _Provider:
    """Supplies the schedule of each dispatch of one run of a test and keeps its traces."""

    def __init__(self, make: Any) -> None:
        self.make = make
        self.recorded: list[Recorded] = []

    def __call__(self) -> Any:
        schedule = dispatcher(self.make(len(self.recorded)))  # (a Lockstep trace: Lockstep)
        rec = _Kept(schedule) if hasattr(schedule, "run_dispatch") else Recorded(schedule)
        self.recorded.append(rec)
        return rec

    def traces(self) -> list[Trace]:
        return [t for t in (r.trace() for r in self.recorded) if t is not None]


class _Kept:
    """A schedule that runs dispatches itself (``ash.Lockstep``), keeping its run's trace."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.kept: Trace | None = None

    def run_dispatch(self, *args: Any) -> Any:
        return self._kept(self.inner.run_dispatch, args)

    def run_fragment_dispatch(self, *args: Any) -> Any:
        return self._kept(self.inner.run_fragment_dispatch, args)

    def _kept(self, run: Any, args: tuple) -> Any:
        try:
            result = run(*args)
        except Exception as exc:
            self.kept = getattr(exc, "asyncshader_trace", None)
            raise
        self.kept = result.trace
        return result

    def trace(self) -> Trace | None:
        return self.kept


def _strategy_maker(name: str, seed: int, depth: int, steps: list[int | None]) -> Any:
    def make(j: int) -> Any:
        s = seed * 1009 + j  # dispatch j of the run
        if name == "lockstep":
            from ..lockstep import Lockstep

            return Lockstep()
        if name == "random":
            return Random(s)
        if name == "pct":
            return PCT(s, depth, steps[j] if j < len(steps) else None)
        return Reverse() if name == "reverse" else InOrder()
    return make


def _replay_maker(traces: list[Trace]) -> Any:
    def make(j: int) -> Strategy:
        if j >= len(traces):
            raise pytest.UsageError(
                f"--asyncshader-replay holds {len(traces)} trace(s), but the test makes "
                f"dispatch number {j + 1}: the test changed since the traces were recorded")
        return Replay(traces[j])
    return make


def _load_replay(value: str) -> list[Trace]:
    if os.path.exists(value):
        with open(value, encoding="utf-8") as f:
            value = f.read().strip()
    if value.lstrip().startswith("{"):
        return [Trace.load(value)]
    return [Trace.from_string(part) for part in value.split(",") if part]


def _stored(store: Any, key: bytes) -> list[tuple[bytes, list[Trace]]]:
    """The failures ``store`` holds for a test (value, its traces); unreadable ones are
    deleted."""
    found = []
    for value in list(store.fetch(key)) if store is not None else []:
        try:
            found.append((value, _load_replay(value.decode())))
        except Exception:  # a damaged or older entry: dropped
            store.delete(key, value)
    return found


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: Any) -> Any:
    marker = item.get_closest_marker("schedules")
    if marker is None or not hasattr(item, "obj"):
        yield
        return
    opts = dict(marker.kwargs)
    if marker.args:
        opts.setdefault("runs", marker.args[0])
    runs = int(opts.pop("runs", 100))
    name = str(opts.pop("strategy", "random")).lower().replace("-", "_")
    depth = int(opts.pop("depth", 3))
    seed = opts.pop("seed", None)
    check_races = bool(opts.pop("races", True))
    if opts:
        raise pytest.UsageError(f"@pytest.mark.schedules got unknown options {sorted(opts)}; it "
                                "takes runs=, strategy=, depth=, seed=, races=")
    if name == "exhaustive":
        raise pytest.UsageError("@pytest.mark.schedules does not run exhaustive searches: they "
                                "need fresh bindings per run; use asyncshader.explore(kernel, "
                                "setup, check, strategy=Exhaustive()) in the test")
    if name not in _STRATEGIES:
        raise pytest.UsageError(f"@pytest.mark.schedules(strategy={name!r}): use one of "
                                f"{', '.join(_STRATEGIES)}")
    if name == "lockstep":  # (one deterministic schedule: one run)
        runs = 1
        if isinstance(item, WGSLItem):
            raise pytest.UsageError(
                f"{item.path.name}: a WGSL @test function cannot run in lockstep: its "
                "expectations (wgsl_test::expect ...) are checks of the coroutine runtime, "
                "which Lockstep does not compile. Use strategy='in_order' (or random, pct) "
                "for the test, and Lockstep in a Python test of the shader at its real size")
    option = item.config.getoption("--asyncshader-seed")
    base = option if option is not None else (seed if seed is not None else 0)
    replay = item.config.getoption("--asyncshader-replay")
    original = item.obj
    plan: list[Any]
    store = default_store()
    key = f"asyncshader.test:{item.nodeid}".encode()
    stored: list[bytes] = []
    if replay:
        plan = [(None, _replay_maker(_load_replay(replay)))]
    else:
        steps: list[int | None] = []
        plan = [(base + r, _strategy_maker(name, base + r, depth, steps)) for r in range(runs)]
        stored = _stored(store, key)  # failures of an earlier session: replayed first
        plan[:0] = [(None, _replay_maker(traces)) for _, traces in stored]

    def note_failure(exc: BaseException, r: int, seed_r: int | None, provider: _Provider
                     ) -> None:
        traces = provider.traces()
        if r < len(stored):
            exc.add_note(f"asyncshader: a failure stored by an earlier run still fails "
                         f"(replayed first from {store!r})")
            exc.add_note(f"reproduce: pytest '{item.nodeid}' "
                         f"--asyncshader-replay={stored[r][0].decode()}")
            return
        if replay:
            exc.add_note(f"asyncshader: replayed {len(traces)} schedule(s) from "
                         "--asyncshader-replay")
            return
        if not traces:
            exc.add_note(f"asyncshader: run {r + 1}/{runs} (seed {seed_r}) failed before any "
                         "dispatch took its schedule from the marker (dispatches with their own "
                         "schedule= are not varied); nothing to replay")
            return
        text = ",".join(t.to_string() for t in traces)
        folder = os.path.join(str(item.config.rootpath), ".asyncshader")
        os.makedirs(folder, exist_ok=True)
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", item.nodeid)[-120:]
        path = os.path.join(folder, f"{stem}.trace")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        for j, t in enumerate(traces):
            t.save(os.path.join(folder, f"{stem}.{j}.json"))
        if store is not None:
            store.save(key, text.encode())
        exc.add_note(f"asyncshader: run {r + 1}/{runs} ({name}, seed {seed_r}) failed; "
                     f"trace saved to {os.path.relpath(path, str(item.config.rootpath))}")
        exc.add_note(f"reproduce: pytest '{item.nodeid}' --asyncshader-replay={text}")

    def learn(provider: _Provider, steps_list: list) -> None:
        for j, t in enumerate(provider.traces()):
            while len(steps_list) <= j:
                steps_list.append(None)
            steps_list[j] = max(steps_list[j] or 0, t.decision_count) or None


    @contextlib.contextmanager
    def scheduled(r: int, seed_r: int | None, make: Any) -> Iterator[None]:
        """Run ``r`` of the test: its dispatches take their schedules from ``make``."""
        __tracebackhide__ = True
        provider = _Provider(make)
        token = DEFAULT_SCHEDULE.set(provider)
        # dispatches that do not choose sanitize= (whatever their schedule) report here
        found: list = []
        sanitizing = DEFAULT_SANITIZE.set("report" if check_races else "off")
        collecting = DEFAULT_FINDINGS.set(found)
        try:
            yield
            if found:
                raise AssertionError(
                    f"the sanitizer found {len(found)} problem(s) (data races, out-of-bounds "
                    "accesses) in dispatches that did not choose sanitize=; pass races=False "
                    "to @pytest.mark.schedules to allow them\n" + render_findings(found))
        except (ReplayMismatchError, TraceError, pytest.UsageError):
            if r >= len(stored):
                raise
            store.delete(key, stored[r][0])  # stored for a test that changed since: dropped
            return
        except BaseException as exc:
            note_failure(exc, r, seed_r, provider)
            raise
        finally:
            DEFAULT_SCHEDULE.reset(token)
            DEFAULT_SANITIZE.reset(sanitizing)
            DEFAULT_FINDINGS.reset(collecting)
        if r < len(stored):  # a stored failure that passes now: the bug is fixed
            store.delete(key, stored[r][0])
        elif not replay:
            learn(provider, steps)

    if inspect.iscoroutinefunction(original):
        @functools.wraps(original)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            for r, (seed_r, make) in enumerate(plan):
                with scheduled(r, seed_r, make):
                    await original(*args, **kwargs)
    else:
        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            for r, (seed_r, make) in enumerate(plan):
                with scheduled(r, seed_r, make):
                    original(*args, **kwargs)

    item.obj = wrapper
    try:
        yield
    finally:
        item.obj = original


# ---- the GPU cross-check: fixtures --------------------------------------------------------------
@pytest.fixture(scope="session")
def wgsl_device() -> Any:
    """The WebGPU device of :mod:`asyncshader.extra.gpu` (one per process, shared by the whole
    session); the test skips, saying what to install, when wgpu or every adapter is missing."""
    from ..extra.device import GPUUnavailable, device

    try:
        return device()
    except GPUUnavailable as exc:
        pytest.skip(str(exc))


class _Crosscheck:
    """``crosscheck(kernel, workgroups, **bindings)`` and ``crosscheck.fragments(shader, w, h,
    **inputs)`` on the session's device (:func:`asyncshader.crosscheck`)."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def __call__(self, kernel: Any, workgroups: Any = 1, **kwargs: Any) -> Any:
        from ..extra.gpu import crosscheck

        return crosscheck(kernel, workgroups, device=self.device, **kwargs)

    def fragments(self, shader: Any, width: int, height: int, **kwargs: Any) -> Any:
        from ..extra.gpu import crosscheck_fragments

        return crosscheck_fragments(shader, width, height, device=self.device, **kwargs)


@pytest.fixture
def crosscheck(wgsl_device: Any) -> _Crosscheck:
    """Runs a dispatch on the CPU and on the session's WebGPU device and compares the buffers
    (raises :class:`~asyncshader.extra.gpu.CrosscheckError`, an AssertionError, on a
    difference): ``crosscheck(kernel, 4, buf=arr)``, ``crosscheck.fragments(shader, 16, 16,
    uv=grid)``."""
    return _Crosscheck(wgsl_device)


# ---- asyncshader.webgpu: a WebGPU device on the CPU ---------------------------------------------
@pytest.fixture
def webgpu_device() -> Any:
    """A fresh :mod:`asyncshader.webgpu` device (wgpu-py's API on asyncshader) in strict mode:
    a race or out-of-bounds access in any dispatch raises at the submit, naming the dispatch
    and the WGSL line. Under ``@pytest.mark.schedules`` its dispatches take the marker's
    schedules."""
    from ..webgpu import gpu

    return gpu.request_adapter_sync().request_device_sync(strict=True)
