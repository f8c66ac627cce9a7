"""The command line and the bundled demo."""

import subprocess
import sys

from asyncshader.cli import main
from asyncshader.demo import INVOCATIONS, atomic_count, count, racy_count


def test_demo_shows_schedule_dependent_results_and_an_identical_replay(capsys):
    assert main(["demo"]) == 0
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


def test_python_dash_m_runs_the_demo():
    done = subprocess.run([sys.executable, "-m", "asyncshader", "demo"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Replayed it" in done.stdout


def test_usage_errors_exit_with_code_2():
    done = subprocess.run([sys.executable, "-m", "asyncshader", "nonsense"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "invalid choice" in done.stderr
