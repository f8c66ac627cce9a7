"""The ``asyncshader`` command line.

``run FILE::KERNEL``, ``explore FILE::KERNEL``, ``replay TRACE``, ``step FILE::KERNEL`` (you
are the scheduler), ``puzzle N [FILE]`` (graded exercises), ``timeline FILE::KERNEL`` (pictures
of a run), ``wgsl FILE::KERNEL`` and ``crosscheck FILE::KERNEL`` (the kernel as WGSL, and on a
WebGPU adapter) and ``demo``. A kernel file defines the kernel, ``setup()`` returning fresh
bindings (resources and dispatch options such as ``workgroups=``) and optionally
``check(result)``, which raises or returns False on a bad outcome. A file with several kernels
gives each its own as ``setup_KERNEL()`` / ``check_KERNEL()``, which win over ``setup()`` and
``check()``. ``FILE.wgsl::ENTRY`` runs an entry point of a WGSL file, its ``setup()`` and
``check()`` in a Python file (``--setup FILE.py``, default: FILE.py beside it). Exit codes:
0 no failure, 1 a failure found (or explore's workers died), 2 a usage error, 130 explore
interrupted (Ctrl-C) before it found a failure.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from .cli_lockstep import lockstep_schedule, save_trace, short
from .targets import UsageError, origin
from .targets import load_target as _load_target

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C before any failure was found (the shells' 128 + SIGINT)


def load_target(spec: str, need_setup: bool = True, args: Any = None
                ) -> tuple[Any, Callable, Callable | None, str, str]:
    """:func:`.targets.load_target` with the command's ``--setup`` file (for WGSL files)."""
    return _load_target(spec, need_setup, getattr(args, "setup", None))


def _strategy(args: argparse.Namespace) -> Any:
    from ..schedules.names import strategy_from_name

    try:
        return strategy_from_name(args.strategy, seed=args.seed, depth=args.depth,
                                  max_preemptions=args.max_preemptions)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _print_table(report: Any, out: Callable) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        out("outcomes:")
        out(f"  {'status':6} {'outcome':32} {'runs':>8}  first run")
        for outcome, n in report.outcomes.items():
            mark = "FAIL" if outcome in report.failing_outcomes else "ok"
            out(f"  {mark:6} {outcome[:32]:32} {n:8,}  {report.examples[outcome]}")
        return
    table = Table(title="outcomes")
    for col in ("status", "outcome", "runs", "first run"):
        table.add_column(col)
    for outcome, n in report.outcomes.items():
        mark = "FAIL" if outcome in report.failing_outcomes else "ok"
        table.add_row(mark, outcome, f"{n:,}", str(report.examples[outcome]))
    buf = io.StringIO()  # through `out`, like every other line (rich wrote to stdout itself)
    Console(file=buf, force_terminal=sys.stdout.isatty(), width=100).print(table)
    out(buf.getvalue().rstrip("\n"))


class _Progress:
    """A progress bar (rich, when installed) for long explorations; silent for short ones."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.bar: Any = None
        self.task: Any = None
        if not enabled:
            return
        try:
            from rich.progress import Progress
        except ImportError:
            self.bar = "text"
            self.total = total
            self.last = 0
            return
        self.bar = Progress(transient=True)
        self.bar.start()
        self.task = self.bar.add_task("exploring", total=total)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            return
        if self.bar == "text":
            if done - self.last >= max(1, self.total // 10):
                self.last = done
                print(f"  ... {done:,}/{self.total:,} runs", file=sys.stderr)
            return
        self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None and self.bar != "text":
            self.bar.stop()


def cmd_run(args: argparse.Namespace, out: Callable) -> int:
    from ..exploration.explore import Recorded, _run_checked

    _check_outputs(args, "trace")
    kernel, setup, check, path, name = load_target(args.target, args=args)
    lockstep = args.schedule == "lockstep"
    rec = lockstep_schedule() if lockstep else Recorded(_strategy(args))
    # with the race detector, as a plain dispatch (and `replay`) runs: WGSL's robust access
    result, outcome, failure, exc = _run_checked(kernel, setup, check, rec, [], "report")
    findings = result.findings if result is not None else []
    trace = result.trace if result is not None else \
        getattr(exc, "asyncshader_trace", None) if lockstep else rec.trace()
    if trace is not None:
        trace.origin = origin(path, name)
    if result is not None:
        for key, value in result.outputs.items():
            out(f"{key} = {short(value)}")
        c = result.counters
        out(f"{c.invocations} invocations in lockstep, outcome {outcome}" if lockstep else
            f"{c.invocations} invocations, {c.steps} steps, {c.decisions} decisions, "
            f"outcome {outcome}")
    _print_findings(findings, out)
    if trace is not None and args.trace:
        save_trace(trace, args.trace)
        out(f"trace saved to {args.trace}")
    failure = failure or _detector_failure(findings)
    if failure is not None:
        out(f"FAILED: {failure}")
        if trace is not None:
            out(f"replay: asyncshader replay {trace.to_string()}")
        return EXIT_FAILURE
    out("ok" + (" (check passed)" if check is not None else ""))
    return EXIT_OK


def cmd_timeline(args: argparse.Namespace, out: Callable) -> int:
    """Runs FILE::KERNEL once with a Timeline; prints the terminal view and writes the files
    asked for (docs/seeing.md). Exit 1 when the run failed or had a data race."""
    from ..errors import AsyncShaderError, BindingError, DispatchError
    from ..exploration.explore import dispatch_once
    from ..exploration.runs import setup_bindings
    from ..views.access import access_diagram
    from ..views.timeline import Timeline

    kernel, setup, _, _, _ = load_target(args.target, args=args)
    _check_outputs(args, "html", "perfetto", "svg", "diagram")
    tl = Timeline(max_steps=args.max_steps)
    failure = None
    bindings = setup_bindings(kernel, setup())
    try:
        result = dispatch_once(kernel, bindings, _strategy(args), [tl], "report")
        findings = result.findings
    except (BindingError, DispatchError):  # setup()'s mistake, not the run's: a usage error
        raise
    except AsyncShaderError as exc:  # a deadlock, a divergence...: show the run up to it
        failure, findings = f"{type(exc).__name__}: {exc}", []
    tl.collect_races(findings)
    if not args.quiet:
        out(tl.to_terminal(color=sys.stdout.isatty()).rstrip("\n"))
    else:
        _print_findings(findings, out)
    for path, write in ((args.html, tl.to_html), (args.perfetto, tl.to_perfetto),
                        (args.svg, tl.to_svg)):
        if path:
            write(path)
            out(f"wrote {path}")
    if args.diagram:
        try:
            access_diagram(tl, args.diagram, workgroup=args.workgroup)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        out(f"wrote {args.diagram}")
    failure = failure or _detector_failure(findings)
    if failure is not None:
        out(f"FAILED: {failure}")
        return EXIT_FAILURE
    return EXIT_OK


def _check_outputs(args: argparse.Namespace, *options: str) -> None:
    """The files the command will write (``--trace``, ``--html`` ...) go into folders that
    exist: checked before the run, rather than failing after it."""
    for option in options:
        path = getattr(args, option, None)
        if path:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise UsageError(f"--{option} {path}: the folder {folder} does not exist; "
                                 "create it first, or name a file in an existing folder")


def _print_findings(findings: list, out: Callable) -> None:
    if findings:
        from ..sanitizers.findings import render_findings

        out(f"race detector: {len(findings)} finding(s) (whatever order this run took):")
        out(textwrap.indent(render_findings(findings), "  "))


def _detector_failure(findings: list) -> str | None:
    """A run whose race detector found bugs fails, like a sanitizer's (notes do not count)."""
    from ..sanitizers.findings import errors_of

    errors = errors_of(findings)
    if not errors:
        return None
    return (f"the race detector found {len(errors)} error(s) (data races or out-of-bounds "
            "accesses, listed above); the outputs depend on the schedule or on WGSL's robust "
            "access. Fix the kernel, or declare an intended race with allow_races= in setup()")


def _print_failures(report: Any, path: str, name: str, out: Callable) -> None:
    """The first failures of an exploration, each with the command that replays it."""
    for f in report.failures[:3]:
        if f.trace is not None:
            f.trace.origin = origin(path, name)
        out(f"run {f.run} failed: {f.error}")
        if f.trace is not None:
            out(f"  replay: asyncshader replay {f.trace.to_string()}")


def cmd_explore(args: argparse.Namespace, out: Callable) -> int:
    from ..errors import ExplorationBrokenError, ExplorationInterrupted
    from ..exploration.explore import explore
    from ..exploration.shrink import shrink

    kernel, setup, check, path, name = load_target(args.target, args=args)
    strategy = _strategy(args)
    progress = _Progress(args.runs, enabled=args.runs >= 200 and not args.quiet)
    try:
        report = explore(kernel, setup, check, strategy, runs=args.runs,
                         time_budget=args.time_budget, stop_on_failure=not args.keep_going,
                         recheck=args.recheck, progress=progress)
    except (ExplorationInterrupted, ExplorationBrokenError) as exc:  # what it found, then why
        progress.close()
        _print_failures(exc.report, path, name, out)
        out(f"stopped: {exc}")
        return (EXIT_FAILURE if exc.report.failures or isinstance(exc, ExplorationBrokenError)
                else EXIT_INTERRUPTED)
    finally:
        progress.close()
    out(report.summary().splitlines()[0])
    _print_table(report, out)
    _print_failures(report, path, name, out)
    if report.failures and args.shrink and report.failures[0].trace is not None:
        s = shrink(kernel, setup, report.failures[0].trace, check)
        s.trace.origin = origin(path, name)
        out(f"shrunk: {s.before} -> {s.after}")
        out(f"  replay: asyncshader replay {s.trace.to_string()}")
    return EXIT_FAILURE if report.failures else EXIT_OK


def cmd_replay(args: argparse.Namespace, out: Callable) -> int:
    from ..errors import ReplayMismatchError
    from ..exploration.explore import _run_checked
    from ..schedules.strategies import Replay
    from ..schedules.trace import Trace

    text = args.trace
    source = text
    if text.endswith(".py") and os.path.isfile(text):
        raise UsageError(f"{text} is a Python file, not a trace: replay takes a trace file (the "
                         "JSON or the one-line string `run --trace` saves) or a trace string "
                         f"(ash1:...); to run the kernel, asyncshader run {text}::KERNEL")
    try:
        if not text.startswith("ash") and os.path.exists(text):
            with open(text, encoding="utf-8") as f:
                text = f.read().strip()
        if text.startswith("ash") and "," in text:
            raise UsageError(
                f"this holds the traces of {text.count(',') + 1} dispatches (one pytest run of a "
                "@pytest.mark.schedules test): replay them with pytest <test> "
                "--asyncshader-replay=<that file or string>")
        trace = Trace.load(source)  # (a file by its name: messages name the file)
    except (OSError, ValueError, KeyError) as exc:
        raise UsageError(f"cannot read the trace: {exc}") from None
    target = args.kernel
    if target is None:
        if not trace.origin:
            raise UsageError("the trace does not say which file holds the kernel (it was not "
                             "made by the CLI): pass --kernel FILE::KERNEL")
        target = f"{trace.origin['file']}::{trace.origin['kernel']}"
        args.setup = args.setup or trace.origin.get("setup")
    kernel, setup, check, _, _ = load_target(target, args=args)
    lockstep = trace.strategy.get("name") == "lockstep"  # (run --schedule lockstep's)
    try:  # (with the race detector, as `run` runs)
        result, outcome, failure, _ = _run_checked(kernel, setup, check, Replay(trace), [],
                                                   "report")
    except ReplayMismatchError as exc:  # the trace does not fit this program: not a failure
        raise UsageError(f"the trace cannot be replayed: {exc}") from None
    what = "the lockstep run" if lockstep else f"{trace.decision_count} decisions"
    out(f"replayed {what} of {trace.kernel.get('name')}: outcome {outcome}")
    findings = result.findings if result is not None else []
    _print_findings(findings, out)
    failure = failure or _detector_failure(findings)
    if failure is not None:
        out(f"FAILED: {failure}")
        return EXIT_FAILURE
    out("ok" + (" (check passed)" if check is not None else ""))
    return EXIT_OK


STEP_HELP = """commands (one per line):
  N          run invocation N until it next suspends (an atomic, a barrier, its end)
  (empty)    run the lowest runnable invocation
  u [K]      undo the last step (or K steps)
  r SEED [K] let Random(SEED) choose K steps (default: to the end)
  c          continue in order to the end
  q          quit here
  h          this help"""


def cmd_step(args: argparse.Namespace, out: Callable) -> int:
    """You are the scheduler: step FILE::KERNEL, reading one command per line from stdin."""
    from .._core.verdicts import check_failed
    from ..exploration.runs import setup_bindings
    from ..exploration.stepper import StepperError, stepper
    from ..schedules.strategies import Random

    kernel, setup, check, path, name = load_target(args.target, args=args)
    if kernel.stage != "compute":
        raise UsageError(f"{name} is a {kernel.stage} shader; the stepper runs compute kernels")
    _check_outputs(args, "trace")
    s = stepper(kernel, **setup_bindings(kernel, setup()))
    out(STEP_HELP)
    while not s.done:
        out(s.show())
        if sys.stdin.isatty():
            print("> ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:  # end of input
            break
        cmd, *rest = line.split() or [""]
        try:
            if cmd == "":
                s.pick(s.runnable[0])
            elif cmd.isdigit():
                s.pick(int(cmd))
            elif cmd == "u":
                s.undo(int(rest[0]) if rest else 1)
            elif cmd == "r" and rest:
                s.run_with(Random(int(rest[0])), int(rest[1]) if len(rest) > 1 else None)
            elif cmd == "c":
                s.finish()
            elif cmd == "q":
                break
            else:
                out(STEP_HELP)
        except (StepperError, ValueError) as exc:
            out(f"! {exc}")
    out(s.show())
    if not s.done:
        out(f"stopped after {s.steps} steps (not finished: no trace)")
        return EXIT_OK
    trace = s.trace
    trace.origin = origin(path, name)
    if args.trace:
        trace.save(args.trace)
        out(f"trace saved to {args.trace}")
    out(f"replay: asyncshader replay {trace.to_string()}")
    failure = None
    if s.error is not None:
        failure = f"{type(s.error).__name__}"
    elif check is not None:
        try:
            verdict = check(s.result)
        except Exception as exc:
            failure = f"check failed: {type(exc).__name__}: {exc}"
        else:
            if check_failed(verdict, check):
                failure = "check(result) returned False"
    failure = failure or _detector_failure(s.findings)
    if failure is not None:
        out(f"FAILED: {failure}")
        return EXIT_FAILURE
    out("ok" + (" (check passed)" if check is not None else ""))
    return EXIT_OK


def cmd_puzzle(args: argparse.Namespace, out: Callable) -> int:
    """``puzzle N --starter`` prints the starter file; ``puzzle N FILE`` checks a solution."""
    from .. import puzzles

    try:
        puzzle = puzzles.get(args.number)
        if args.starter or args.file is None:
            out(puzzle.starter if args.starter else f"Puzzle {puzzle.number}: {puzzle.title}\n"
                f"{puzzle.statement}\n(asyncshader puzzle {puzzle.number} --starter > mine.py "
                f"prints a starter file; asyncshader puzzle {puzzle.number} mine.py checks it)")
            return EXIT_OK
        verdict = puzzles.check(args.number, args.file)
    except puzzles.PuzzleFileError as exc:
        raise UsageError(str(exc)) from None
    out(str(verdict))
    if verdict.trace is not None:
        out(f"(replay the run that showed it: schedule={verdict.trace.to_string()!r})")
    return EXIT_OK if verdict.passed else EXIT_FAILURE


def _add_strategy_options(p: argparse.ArgumentParser, default: str) -> None:
    from ..schedules.names import STRATEGY_NAMES

    p.add_argument("--strategy", default=default,
                   help=f"{', '.join(STRATEGY_NAMES)} (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed (run i of explore uses seed + i)")
    p.add_argument("--depth", type=int, default=3, help="PCT depth (default: 3)")
    p.add_argument("--max-preemptions", type=int, default=2,
                   help="exhaustive: preemption bound (default: 2)")


def cmd_demo(args: argparse.Namespace, out: Callable) -> int:
    """The bundled demo (a racy counter, replayed, and the race detector's report)."""
    from .demo import main as demo

    return demo()


# ---- wgsl / crosscheck: the kernel as WGSL, and on a WebGPU adapter ---------------------------
def cmd_wgsl(args: argparse.Namespace, out: Callable) -> int:
    """Prints the kernel's WGSL (types from setup()'s bindings when the file has a setup)."""
    from ..emit import WGSLEmitError, to_wgsl
    from ..exploration.runs import setup_bindings

    _python_only(args.target, "is WGSL already")
    kernel, setup, _, _, _ = load_target(args.target, need_setup=False)
    given = setup_bindings(kernel, setup(), sized=False) if setup is not None else {}
    bindings = _shader_bindings(kernel, given)
    try:
        out(to_wgsl(kernel, **bindings).rstrip("\n"))
    except WGSLEmitError as exc:
        print(f"asyncshader wgsl: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    return EXIT_OK


def cmd_crosscheck(args: argparse.Namespace, out: Callable) -> int:
    """Runs setup()'s dispatch on the CPU and on a WebGPU adapter; prints the comparison."""
    from ..emit import WGSLEmitError
    from ..exploration.runs import setup_bindings
    from ..extra.gpu import CrosscheckError, GPUUnavailable, crosscheck, crosscheck_fragments

    _python_only(args.target, "runs on a GPU as it is (crosscheck compares a Python kernel "
                 "with its WGSL)")
    kernel, setup, _, _, _ = load_target(args.target)
    given = setup_bindings(kernel, setup())
    bindings = _shader_bindings(kernel, given)
    try:
        if kernel.stage == "compute":
            report = crosscheck(kernel, given.get("workgroups", 1), ulp=args.ulp,
                                atol=args.atol, ignore=tuple(args.ignore),
                                overrides=given.get("overrides"), **bindings)
        else:
            report = crosscheck_fragments(kernel, given["width"], given["height"], ulp=args.ulp,
                                          atol=args.atol, ignore=tuple(args.ignore), **bindings)
    except (WGSLEmitError, CrosscheckError) as exc:
        out(str(exc))
        return EXIT_FAILURE
    except GPUUnavailable as exc:
        print(f"asyncshader crosscheck: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out(report.describe())
    return EXIT_OK


def _python_only(target: str, why: str) -> None:
    if target.partition("::")[0].endswith((".wgsl", ".wesl")):
        raise UsageError(f"{target.partition('::')[0]} {why}: this command takes FILE.py::KERNEL")


def _shader_bindings(kernel: Any, given: dict) -> dict:
    """setup()'s values for the shader's parameters and module-scope bindings (not
    workgroups, width, schedule ...)."""
    names = set(kernel.params) | (set(kernel.scan()[3]) if kernel.stage == "compute" else set())
    return {k: v for k, v in given.items() if k in names}


def _add_emit_commands(sub: Any) -> None:
    p = sub.add_parser("wgsl", help="print FILE::KERNEL as WGSL")
    p.add_argument("target", metavar="FILE::KERNEL")
    p = sub.add_parser("crosscheck", help="run FILE::KERNEL on the CPU and on a WebGPU adapter "
                       "(wgpu) and compare the buffers")
    p.add_argument("target", metavar="FILE::KERNEL")
    p.add_argument("--ulp", type=int, default=4, help="float tolerance in ULPs (default 4)")
    p.add_argument("--atol", type=float, default=0.0,
                   help="absolute float tolerance, for derivatives and other cancellations "
                        "(default 0: ULPs only)")
    p.add_argument("--ignore", action="append", default=[], metavar="BINDING",
                   help="leave a schedule-dependent buffer out (repeatable)")


def _add_target(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="FILE::KERNEL", help="a kernel of a Python file, or "
                   "FILE.wgsl::ENTRY, an entry point of a WGSL file")
    p.add_argument("--setup", metavar="FILE.py", help="for FILE.wgsl: the Python file with "
                   "setup() and check() (default: FILE.py beside it)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="asyncshader",
                                     description="Run GPU shaders on the CPU as coroutines.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="a racy counter: different seeds, different results; replay")
    p = sub.add_parser("run", help="run FILE::KERNEL once under one schedule")
    _add_target(p)
    _add_strategy_options(p, "in_order")
    p.add_argument("--schedule", choices=["lockstep"], help="numpy lanes (docs/lockstep.md)")
    p.add_argument("--trace", metavar="OUT",
                   help="save the trace: JSON if OUT ends in .json, else the one-line string")
    p = sub.add_parser("explore", help="run FILE::KERNEL under many schedules")
    _add_target(p)
    _add_strategy_options(p, "random")
    p.add_argument("--runs", type=int, default=1000, help="schedules to try (default: 1000)")
    p.add_argument("--time-budget", type=float, default=None, metavar="SECONDS")
    p.add_argument("--keep-going", action="store_true", help="do not stop at the first failure")
    p.add_argument("--recheck", type=float, default=0.0, metavar="FRACTION",
                   help="rerun this fraction of runs to check determinism")
    p.add_argument("--shrink", action="store_true", help="shrink the first failing schedule")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p = sub.add_parser("replay", help="replay a trace (a file or a trace string)")
    p.add_argument("trace", metavar="TRACE")
    p.add_argument("--kernel", metavar="FILE::KERNEL",
                   help="where the kernel is (default: the file the trace names)")
    p.add_argument("--setup", metavar="FILE.py", help="a WGSL kernel's setup() and check() "
                   "(default: the file the trace names)")
    p = sub.add_parser("step", help="you are the scheduler: step FILE::KERNEL by hand "
                       "(commands on stdin)")
    _add_target(p)
    p.add_argument("--trace", metavar="OUT.json", help="save the trace of the run taken")
    p = sub.add_parser("puzzle", help="puzzle N: its statement; --starter: a starter file; "
                       "FILE: check your solution")
    p.add_argument("number", type=int, metavar="N", help="the puzzle, 1 to 10")
    p.add_argument("file", nargs="?", metavar="FILE", help="your solution")
    p.add_argument("--starter", action="store_true", help="print the starter file")
    p = sub.add_parser("timeline", help="run FILE::KERNEL once and draw what happened")
    _add_target(p)
    _add_strategy_options(p, "in_order")
    p.add_argument("--html", metavar="OUT", help="a self-contained HTML timeline")
    p.add_argument("--perfetto", metavar="OUT", help="Chrome trace-event JSON (ui.perfetto.dev)")
    p.add_argument("--svg", metavar="OUT", help="the timeline as an SVG picture")
    p.add_argument("--diagram", metavar="OUT", help="the access diagram (.svg, or .png)")
    p.add_argument("--workgroup", type=int, default=0, help="the access diagram's workgroup")
    p.add_argument("--max-steps", type=int, default=20_000, help="steps recorded at most")
    p.add_argument("--quiet", action="store_true", help="no terminal view")
    _add_emit_commands(sub)
    return parser


def main(argv: list[str] | None = None, out: Callable = print) -> int:
    from ..errors import BindingError, DispatchError
    from ..exploration.explore import DeterminismError
    args = build_parser().parse_args(argv)
    commands = {"run": cmd_run, "explore": cmd_explore, "replay": cmd_replay, "step": cmd_step,
                "puzzle": cmd_puzzle, "timeline": cmd_timeline, "wgsl": cmd_wgsl,
                "crosscheck": cmd_crosscheck, "demo": cmd_demo}
    try:
        if getattr(args, "runs", 1) < 1:
            raise UsageError("--runs must be at least 1")
        return commands[args.command](args, out)
    except (UsageError, BindingError, DispatchError) as exc:  # the call, setup() or options
        print(f"asyncshader {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DeterminismError as exc:
        print(f"asyncshader {args.command}: determinism check failed: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except BrokenPipeError:  # (`asyncshader wgsl ... | head`: the reader left; so do we)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
