"""``asyncshader run FILE::KERNEL --schedule lockstep``: one run in lockstep, its outputs, the
file's check and the race detector's findings, as under the other schedules."""

from asyncshader.tools.cli import main


def test_run_in_lockstep_prints_the_outputs_and_passes_the_check():
    lines = []
    assert main(["run", "examples/racy_counter.py::atomic_increment", "--schedule",
                 "lockstep"], out=lines.append) == 0
    assert "counter = array([8], dtype=uint32)" in lines       # 8 atomic increments
    assert "seen = array([0, 1, 2, 3, 4, 5, 6, 7], dtype=uint32)" in lines  # in lane order
    assert any("invocations in lockstep" in line for line in lines)
    assert lines[-1] == "ok"  # (the file has no check)
    assert not any(line.startswith("race detector") for line in lines)  # (atomics: no race)


def test_lockstep_runs_the_race_detector_and_shows_a_lost_update_as_a_race():
    lines = []
    assert main(["run", "examples/lost_update.py::lost_update", "--schedule", "lockstep"],
                out=lines.append) == 1
    assert "race detector: 2 finding(s) (whatever order this run took):" in lines
    text = "\n".join(lines)
    assert "Read-write data race on storage memory total[0]" in text
    assert "at examples/lost_update.py:40: old = total[0]" in text
    assert any(line.startswith("FAILED: check failed") and "lost update" in line
               for line in lines), lines


def test_a_lockstep_runs_trace_replays_in_lockstep_to_the_same_outcome(tmp_path):
    saved = tmp_path / "t.txt"
    ran, replayed = [], []
    assert main(["run", "examples/lost_update.py::lost_update", "--schedule", "lockstep",
                 "--trace", str(saved)], out=ran.append) == 1
    assert f"trace saved to {saved}" in ran
    outcome = next(line for line in ran if "invocations in lockstep" in line).split()[-1]
    assert saved.read_text().startswith("ash1:lost_update:")
    assert main(["replay", str(saved)], out=replayed.append) == 1  # (the file's origin)
    assert replayed[0] == f"replayed the lockstep run of lost_update.lost_update: outcome " \
        f"{outcome}"
    assert any(line.startswith("FAILED: check failed") for line in replayed)
    assert "race detector: 2 finding(s) (whatever order this run took):" in replayed


RACY_FRAGMENTS = '''import numpy as np

import asyncshader as ash


@ash.fragment
async def counts_pixels(total: ash.Storage, *, position: ash.vec4f):
    total[0] = total[0] + 1  # every pixel: a lost update


def setup():
    return {"width": 4, "height": 2, "total": np.zeros(1, np.uint32)}
'''


def test_a_fragment_shader_in_lockstep_runs_the_race_detector(tmp_path):
    (tmp_path / "pixels.py").write_text(RACY_FRAGMENTS)
    lines = []
    assert main(["run", f"{tmp_path / 'pixels.py'}::counts_pixels", "--schedule", "lockstep"],
                out=lines.append) == 1
    text = "\n".join(lines)
    assert "8 invocations in lockstep" in text
    assert "Read-write data race on storage memory total[0]" in text
    assert "Write-write data race on storage memory total[0]" in text
    assert "pixels.py:8: total[0] = total[0] + 1" in text
    assert "fragment (0,0) [quad id 0]" in text
    assert any(line.startswith("FAILED: the race detector found 2 error(s)") for line in lines)
