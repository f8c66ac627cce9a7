"""The command line on WGSL files: ``run|explore|replay|timeline|step FILE.wgsl::ENTRY``, with
``setup()`` and ``check()`` from the Python file beside it or ``--setup FILE.py``."""

import io
import re
import subprocess
import sys

import pytest
from helpers import ROOT

from asyncshader.tools.cli import main

#: four invocations add one to counter[0] each, by a load and a store with an atomic between
#: (another invocation may store in between: a lost update)
COUNTER = """@group(0) @binding(0) var<storage, read_write> counter: array<u32>;
@group(0) @binding(1) var<storage, read_write> tickets: array<atomic<u32>>;

@compute @workgroup_size(4)
fn main() {
    let seen = counter[0];
    atomicAdd(&tickets[0], 1u);
    counter[0] = seen + 1u;
}

@compute @workgroup_size(2)
fn idle() {
}
"""

SETUP = """import numpy as np

def setup():
    return {"workgroups": 1, "counter": np.zeros(1, np.uint32),
            "tickets": np.zeros(1, np.uint32), "allow_races": "counter"}

def check(result):
    assert result["counter"][0] == 4, f"lost update: counter = {result['counter'][0]}"

def setup_idle():  # (an entry point's own setup and check win over setup() and check())
    return {"workgroups": 3}

def check_idle(result):
    return True
"""


@pytest.fixture
def files(tmp_path):
    (tmp_path / "counter.wgsl").write_text(COUNTER, encoding="utf-8")
    (tmp_path / "counter.py").write_text(SETUP, encoding="utf-8")
    return tmp_path


def cli(*args):
    lines = []
    code = main([str(a) for a in args], out=lines.append)
    return code, "\n".join(lines)


def test_run_takes_setup_and_check_from_the_python_file_beside_the_wgsl_file(files):
    code, out = cli("run", f"{files / 'counter.wgsl'}::main")
    # in order, each invocation runs to its end before the next: no update lost
    assert code == 0 and "counter = array([4], dtype=uint32)" in out
    assert out.endswith("ok (check passed)")


def test_explore_finds_the_lost_update_and_its_replay_line_reproduces_it(files):
    code, out = cli("explore", f"{files / 'counter.wgsl'}::main", "--runs", 60, "--quiet",
                    "--seed", 3)
    assert code == 1
    failed = re.search(r"run \d+ failed: check failed: AssertionError: lost update: "
                       r"counter = (\d)", out)
    trace = re.search(r"replay: asyncshader replay (\S+)", out).group(1)
    code, again = cli("replay", trace)
    assert code == 1 and f"lost update: counter = {failed.group(1)}" in again


def test_a_setup_file_elsewhere_is_given_with_setup_and_recorded_for_replay(files, tmp_path):
    other = files / "elsewhere"
    other.mkdir()
    (files / "counter.py").rename(other / "bindings.py")
    for seed in range(20):  # a schedule that loses an update
        trace = tmp_path / f"t{seed}.json"
        code, out = cli("run", f"{files / 'counter.wgsl'}::main", "--setup",
                        other / "bindings.py", "--strategy", "random", "--seed", seed,
                        "--trace", trace)
        if code == 1:
            break
    lost = re.search(r"lost update: counter = (\d)", out).group(1)
    code, again = cli("replay", trace)  # the trace says where setup() is
    assert code == 1 and again.endswith(f"lost update: counter = {lost}")


def test_without_a_setup_file_an_entry_point_that_binds_nothing_runs(files):
    (files / "counter.py").unlink()
    code, out = cli("run", f"{files / 'counter.wgsl'}::idle")
    assert code == 0 and "2 invocations" in out and out.endswith("ok")


def test_without_a_setup_file_the_bindings_are_named_with_the_fix(files, capsys):
    (files / "counter.py").unlink()
    assert cli("run", f"{files / 'counter.wgsl'}::main")[0] == 2
    err = capsys.readouterr().err
    assert ("counter.wgsl::main binds counter (@group(0) @binding(0)), tickets (@group(0) "
            "@binding(1)): give them in setup() of a Python file, --setup FILE.py or "
            "counter.py beside it") in err


def test_a_missing_entry_point_lists_those_there_are(files, capsys):
    assert cli("explore", f"{files / 'counter.wgsl'}::mian")[0] == 2
    assert ("counter.wgsl has no entry point named 'mian'; its entry points: main, idle"
            in capsys.readouterr().err)


def test_a_file_that_is_not_valid_wgsl_is_a_usage_error_with_the_diagnostic(tmp_path, capsys):
    (tmp_path / "bad.wgsl").write_text("@compute @workgroup_size(1)\nfn main() {\n"
                                       "    let x = y;\n}\n", encoding="utf-8")
    assert cli("run", f"{tmp_path / 'bad.wgsl'}::main")[0] == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'bad.wgsl'}:3:13" in err and "y" in err and "^" in err


def test_timeline_draws_the_run_and_names_the_races_wgsl_lines(files):
    (files / "counter.py").write_text(SETUP.replace(', "allow_races": "counter"', ""))
    code, out = cli("timeline", f"{files / 'counter.wgsl'}::main")
    assert code == 1 and "timeline of counter.main: 8 steps" in out
    assert "at 8: counter[0] = seen + 1u;" in out


def test_step_runs_the_wgsl_entry_point_as_the_user_schedules_it(files, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n0\n1\n1\n2\n2\n3\n3\nc\n"))
    code, out = cli("step", f"{files / 'counter.wgsl'}::main")
    # one invocation at a time, each to its end: no update lost
    assert code == 0 and out.endswith("ok (check passed)")
    assert re.search(r"#0 +ready +counter\.wgsl:7 +atomicAdd\(&tickets\[0\], 1u\);", out)


@pytest.mark.parametrize("command", ["wgsl", "crosscheck"])
def test_the_emitting_commands_take_python_kernels_only(files, command, capsys):
    assert cli(command, f"{files / 'counter.wgsl'}::main")[0] == 2
    assert "this command takes FILE.py::KERNEL" in capsys.readouterr().err


def test_the_console_command_runs_a_wgsl_file(files):
    done = subprocess.run([sys.executable, "-m", "asyncshader", "run",
                           f"{files / 'counter.wgsl'}::idle"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "6 invocations" in done.stdout and done.stdout.strip().endswith("ok (check passed)")


VERTEX_AND_FRAGMENT = """@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    return vec4f(0.0);
}
@fragment fn fs(@builtin(position) p: vec4f) -> @location(0) vec4f {
    return vec4f(p.x, p.y, 0.0, 1.0);
}
"""


def test_a_vertex_entry_point_is_a_usage_error_saying_why_it_does_not_run(tmp_path, capsys):
    (tmp_path / "vf.wgsl").write_text(VERTEX_AND_FRAGMENT, encoding="utf-8")
    assert cli("run", f"{tmp_path / 'vf.wgsl'}::vs")[0] == 2
    err = capsys.readouterr().err
    assert "vf.wgsl::vs is a vertex entry point: asyncshader has no vertex stage" in err
    assert "Traceback" not in err


def test_a_fragment_entry_point_runs_over_the_grid_its_setup_gives(tmp_path, capsys):
    (tmp_path / "vf.wgsl").write_text(VERTEX_AND_FRAGMENT, encoding="utf-8")
    assert cli("run", f"{tmp_path / 'vf.wgsl'}::fs")[0] == 2  # no setup: no grid
    assert "vf.wgsl::fs is a fragment entry point: give the grid it shades" in \
        capsys.readouterr().err
    (tmp_path / "vf.py").write_text("def setup():\n    return {'width': 3, 'height': 2}\n"
                                    "def check(result):\n"
                                    "    assert result.mask.all()\n", encoding="utf-8")
    code, out = cli("run", f"{tmp_path / 'vf.wgsl'}::fs")
    assert code == 0 and out.endswith("ok (check passed)")
