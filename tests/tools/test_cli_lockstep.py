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


def test_lockstep_records_no_trace(tmp_path, capsys):
    assert main(["run", "examples/boids.py::update", "--schedule", "lockstep", "--trace",
                 str(tmp_path / "t.json")], out=lambda line: None) == 2
    assert "--schedule lockstep records no trace" in capsys.readouterr().err
    assert not (tmp_path / "t.json").exists()
