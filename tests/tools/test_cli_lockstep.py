"""``asyncshader run FILE::KERNEL --schedule lockstep``: one run in lockstep, its outputs and the
file's check, without the race detector (and so without its findings)."""

from asyncshader.tools.cli import main


def test_run_in_lockstep_prints_the_outputs_and_passes_the_check():
    lines = []
    assert main(["run", "examples/racy_counter.py::atomic_increment", "--schedule",
                 "lockstep"], out=lines.append) == 0
    assert "counter = array([8], dtype=uint32)" in lines       # 8 atomic increments
    assert "seen = array([0, 1, 2, 3, 4, 5, 6, 7], dtype=uint32)" in lines  # in lane order
    assert any("invocations in lockstep" in line for line in lines)
    assert lines[-1].startswith("ok") and "no race detector" in lines[-1]


def test_lockstep_shows_a_lost_update_as_a_wrong_answer_not_as_a_race():
    lines = []
    assert main(["run", "examples/lost_update.py::lost_update", "--schedule", "lockstep"],
                out=lines.append) == 1
    assert any(line.startswith("FAILED: check failed") and "lost update" in line
               for line in lines), lines
    assert not any("data race" in line for line in lines)


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
