"""Command-line mistakes end with one line on stderr naming the mistake and its fix, exit code
2, no traceback: a setup() that returns no dict, a fragment shader's setup() without width=,
an output file in a missing folder, a negative --max-steps, a Python file given to replay."""

import textwrap

import pytest

from asyncshader.tools.cli import main

LIST_SETUP = """
import numpy as np
import asyncshader as ash
from asyncshader import u32

@ash.compute(workgroup_size=4)
async def fill(out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = 1

def setup():
    return [np.zeros(4, np.uint32)]
"""

FRAGMENT_NO_WIDTH = """
import asyncshader as ash
from asyncshader import vec4f

@ash.fragment
async def red(*, position: vec4f) -> vec4f:
    return vec4f(1.0, 0.0, 0.0, 1.0)

def setup():
    return {"height": 2}
"""

GOOD = """
import numpy as np
import asyncshader as ash
from asyncshader import u32

@ash.compute(workgroup_size=4)
async def fill(out: ash.Storage, *, local_invocation_index: u32):
    out[local_invocation_index] = 1

def setup():
    return {"out": np.zeros(4, np.uint32)}
"""


@pytest.fixture
def files(tmp_path):
    for name, text in (("listsetup", LIST_SETUP), ("frag", FRAGMENT_NO_WIDTH),
                       ("good", GOOD)):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp_path


def usage_error(capsys, argv):
    """Runs the command; asserts exit 2 and one line on stderr; returns that line."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("command", ["run", "explore", "timeline", "step", "wgsl",
                                     "crosscheck"])
def test_a_setup_that_returns_a_list_is_a_usage_error(capsys, files, monkeypatch, command):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    err = usage_error(capsys, [command, f"{files}/listsetup.py::fill"])
    assert err.startswith(f"asyncshader {command}: error: setup() must return a dict of the "
                          "bindings")
    assert "got a list" in err


@pytest.mark.parametrize("command", ["run", "crosscheck", "timeline", "explore"])
def test_a_fragment_setup_without_width_is_a_usage_error(capsys, files, command):
    err = usage_error(capsys, [command, f"{files}/frag.py::red"])
    assert "setup() for a fragment shader must return width= and height=" in err
    assert "it has no width:" in err


@pytest.mark.parametrize("argv, option", [
    (["run", "{f}/good.py::fill", "--trace", "{f}/missing/t.json"], "--trace"),
    (["run", "{f}/good.py::fill", "--trace", "{f}/missing/t.txt"], "--trace"),
    (["timeline", "{f}/good.py::fill", "--html", "{f}/missing/t.html"], "--html"),
    (["timeline", "{f}/good.py::fill", "--svg", "{f}/missing/t.svg"], "--svg"),
    (["step", "{f}/good.py::fill", "--trace", "{f}/missing/t.json"], "--trace"),
])
def test_an_output_into_a_missing_folder_is_refused_before_the_run(capsys, files, argv, option):
    err = usage_error(capsys, [a.format(f=files) for a in argv])
    assert f"error: {option} {files}/missing/" in err
    assert f"the folder {files}/missing does not exist" in err
    assert not (files / "missing").exists()


@pytest.mark.parametrize("steps", ["-1", "0"])
def test_timeline_refuses_a_max_steps_below_one(capsys, files, steps):
    err = usage_error(capsys, ["timeline", f"{files}/good.py::fill", "--max-steps", steps])
    assert f"max_steps must be a positive int, got {steps}" in err


def test_replay_of_a_python_file_says_it_is_not_a_trace(capsys, files):
    err = usage_error(capsys, ["replay", f"{files}/good.py"])
    assert err.startswith(f"asyncshader replay: error: {files}/good.py is a Python file, not a "
                          "trace")
    assert f"asyncshader run {files}/good.py::KERNEL" in err
    assert "import numpy" not in err


def test_replay_of_a_file_that_holds_no_trace_names_the_file_not_its_text(capsys, files):
    (files / "notes.txt").write_text("some notes\nand more\n")
    err = usage_error(capsys, ["replay", f"{files}/notes.txt"])
    assert f"trace file '{files}/notes.txt'" in err and "some notes" not in err


def test_a_trace_saved_and_replayed_through_files_still_works(capsys, files):
    assert main(["run", f"{files}/good.py::fill", "--trace", f"{files}/t.txt"]) == 0
    assert main(["replay", f"{files}/t.txt"]) == 0
    assert "replayed" in capsys.readouterr().out
