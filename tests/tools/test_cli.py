"""The command line and the bundled demo."""

import os
import subprocess
import sys
import tempfile

from asyncshader.tools.cli import main
from asyncshader.tools.demo import INVOCATIONS, atomic_count, count, racy_count


def test_demo_shows_schedule_dependent_results_and_an_identical_replay(capsys, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the demo saves its trace there
    assert main(["demo"]) == 0
    assert (tmp_path / "asyncshader-demo-trace.json").is_file()
    out = capsys.readouterr().out
    assert "Distinct results:" in out and "depends on the schedule" in out
    assert "(identical)" in out
    assert f"every seed gives [{INVOCATIONS}]" in out


def test_demo_kernels_race_and_the_fix_does_not():
    import asyncshader as ash

    racy = {count(racy_count, ash.Random(s))[0] for s in range(8)}
    assert len(racy) > 1 and max(racy) <= INVOCATIONS and min(racy) < INVOCATIONS
    assert count(racy_count, ash.InOrder())[0] == INVOCATIONS
    assert {count(atomic_count, ash.Random(s))[0] for s in range(8)} == {INVOCATIONS}


def test_python_dash_m_runs_the_demo(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "asyncshader", "demo"], capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert "Replayed it" in done.stdout


def test_a_reader_that_leaves_early_ends_the_command_quietly(tmp_path):
    """`asyncshader demo | head -1`: the reader closes the pipe while the demo still prints;
    the command stops with exit 0 and no traceback (Python's default is a BrokenPipeError)."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen([sys.executable, "-m", "asyncshader", "demo"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        first = proc.stdout.readline()
        proc.stdout.close()                  # (the demo has a dozen more lines to print)
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0, err
    assert first.startswith("8 invocations") and "Traceback" not in err and err == ""


def test_usage_errors_exit_with_code_2():
    done = subprocess.run([sys.executable, "-m", "asyncshader", "nonsense"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "invalid choice" in done.stderr


# ---- run / explore / replay
EXAMPLE = "examples/lost_update.py::lost_update"


def test_run_in_order_passes_the_check_but_the_race_detector_fails_it(tmp_path):
    lines = []
    out = tmp_path / "t.json"
    assert main(["run", EXAMPLE, "--trace", str(out)], out=lines.append) == 1
    assert lines[0] == "total = array([2, 0], dtype=uint32)"  # the right answer, in order
    assert any("data race on storage memory total[0]" in line for line in lines)
    assert any(line.startswith("FAILED: the race detector found 2 error(s)") for line in lines)
    assert out.exists()
    import asyncshader as ash

    assert ash.Trace.load(str(out)).origin["kernel"] == "lost_update"


def test_explore_finds_the_bug_exits_1_and_its_replay_line_reproduces_it(tmp_path):
    lines = []
    code = main(["explore", EXAMPLE, "--strategy", "exhaustive", "--shrink", "--quiet"],
                out=lines.append)
    assert code == 1
    text = "\n".join(lines)
    assert "FAIL" in text and "outcomes" in text and "shrunk: 2 preemption(s)" in text
    trace = next(l for l in lines if "replay: asyncshader replay" in l).split()[-1]
    replayed = []
    assert main(["replay", trace], out=replayed.append) == 1
    assert any("lost update" in l for l in replayed)


def test_explore_without_a_failure_exits_0():
    lines = []
    assert main(["explore", EXAMPLE, "--strategy", "in_order", "--quiet"],
                out=lines.append) == 0
    assert "1 schedules (in_order)" in lines[0]


def test_usage_errors_name_the_fix(capsys):
    assert main(["explore", "examples/lost_update.py"]) == 2
    assert "expected FILE::KERNEL" in capsys.readouterr().err
    assert main(["run", "examples/lost_update.py::nope"]) == 2
    assert "kernels there: lost_update" in capsys.readouterr().err
    assert main(["run", EXAMPLE, "--strategy", "bogus"]) == 2
    assert "use random, pct, exhaustive" in capsys.readouterr().err
    assert main(["replay", "ash1:x:00:AAAA"]) == 2
    assert "cannot read the trace" in capsys.readouterr().err


KERNEL_FILE = '''
import numpy as np
import asyncshader as ash

@ash.compute(workgroup_size=2)
async def k(out: ash.Storage, *, local_invocation_index):
    await ash.atomic_add(ash.ptr(out, 0), 1)

def setup():
    return {BINDINGS}
'''


def _kernel_file(tmp_path, bindings):
    path = tmp_path / "kern.py"
    path.write_text(KERNEL_FILE.replace("{BINDINGS}", bindings))
    return path


def test_a_setup_with_a_wrong_binding_is_a_usage_error_not_a_failure(tmp_path, capsys):
    path = _kernel_file(tmp_path, '{"outt": np.zeros(1, np.uint32)}')
    assert main(["explore", f"{path}::k", "--runs", "3", "--quiet"]) == 2
    assert "unknown binding 'outt'" in capsys.readouterr().err


def test_a_trace_that_no_longer_fits_the_program_is_a_usage_error(tmp_path, capsys):
    path = _kernel_file(tmp_path, '{"out": np.zeros(1, np.uint32)}')
    trace = tmp_path / "t.json"
    assert main(["run", f"{path}::k", "--strategy", "random", "--trace", str(trace)]) == 0
    other = tmp_path / "other.py"  # the same kernel name, four invocations: another program
    other.write_text(path.read_text().replace("workgroup_size=2", "workgroup_size=4"))
    capsys.readouterr()
    assert main(["replay", str(trace), "--kernel", f"{other}::k"]) == 2
    assert "cannot be replayed" in capsys.readouterr().err


def test_replaying_the_traces_of_a_multi_dispatch_test_points_to_pytest(tmp_path, capsys):
    path = _kernel_file(tmp_path, '{"out": np.zeros(1, np.uint32)}')
    single = tmp_path / "one.trace"
    assert main(["run", f"{path}::k", "--strategy", "random", "--trace", str(single)]) == 0
    both = tmp_path / "both.trace"
    both.write_text(single.read_text().strip() + "," + single.read_text().strip())
    capsys.readouterr()
    assert main(["replay", str(both), "--kernel", f"{path}::k"]) == 2
    assert "the traces of 2 dispatches" in capsys.readouterr().err


RACY_FILE = '''
import numpy as np
import asyncshader as ash

@ash.compute(workgroup_size=2)
async def k(out: ash.Storage, *, local_invocation_index):
    out[0] = out[0] + 1  # a plain read-modify-write from both invocations

def setup():
    return {BINDINGS}
'''


def test_run_and_replay_fail_when_the_race_detector_finds_a_race(tmp_path):
    # like a sanitizer: the in-order run gives the right answer, but the race is a bug
    path = tmp_path / "racy.py"
    path.write_text(RACY_FILE.replace("{BINDINGS}", '{"out": np.zeros(1, np.uint32)}'))
    lines = []
    trace = tmp_path / "t.json"
    assert main(["run", f"{path}::k", "--trace", str(trace)], out=lines.append) == 1
    text = "\n".join(lines)
    assert "out = array([2]" in text  # the outputs are still shown
    assert "Read-write data race on storage memory out[0]" in text
    assert "FAILED: the race detector found 2 error(s)" in text and "allow_races=" in text
    replayed = []
    assert main(["replay", str(trace)], out=replayed.append) == 1
    assert any("data race on storage memory out[0]" in line for line in replayed)
    assert replayed[-1].startswith("FAILED: the race detector found")


def test_a_race_declared_in_setup_does_not_fail_the_run(tmp_path):
    path = tmp_path / "racy.py"
    path.write_text(RACY_FILE.replace(
        "{BINDINGS}", '{"out": np.zeros(1, np.uint32), "allow_races": ["out"]}'))
    lines = []
    assert main(["run", f"{path}::k"], out=lines.append) == 0
    assert lines[-1] == "ok"
