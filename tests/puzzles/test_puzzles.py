"""The puzzles: every solution passes, every starter does not, and the typical wrong answers
(a missing guard or barrier, a lost update, a barrier in a branch...) get the right sentence.
Wrong answers are the solutions with one change, written to tmp_path."""

import subprocess
import sys

import pytest
from helpers import ROOT

import asyncshader as ash
from asyncshader import puzzles

SOLUTIONS = ROOT / "puzzles" / "solutions"
FILES = {int(p.name[1:3]): p for p in sorted(SOLUTIONS.glob("p*.py"))}


def test_ten_puzzles_and_ten_solutions():
    assert [p.number for p in puzzles.PUZZLES] == list(range(1, 11))
    assert sorted(FILES) == list(range(1, 11))


def _ready(number):
    if puzzles.get(number).needs is not None:
        pytest.skip(f"puzzle {number} needs {puzzles.get(number).needs}, which this "
                    "asyncshader does not have")


@pytest.mark.parametrize("number", range(1, 11))
def test_the_solution_passes(number):
    _ready(number)
    verdict = puzzles.check(number, FILES[number])
    assert verdict.passed, verdict.message
    assert verdict.message.startswith("Solved") and verdict.runs >= 5


@pytest.mark.parametrize("number", range(1, 11))
def test_the_starter_does_not_pass(number, tmp_path):
    _ready(number)
    path = tmp_path / "starter.py"
    path.write_text(puzzles.get(number).starter)
    verdict = puzzles.check(number, path)
    assert not verdict.passed and verdict.message


def _wrong(tmp_path, number, old, new, count=1):
    """Puzzle ``number``'s solution with ``old`` replaced by ``new`` (``count`` times)."""
    text = FILES[number].read_text()
    assert text.count(old) >= count, old
    path = tmp_path / f"wrong{number}.py"
    path.write_text(text.replace(old, new, count))
    verdict = puzzles.check(number, path)
    assert not verdict.passed
    return verdict.message


def _line(tmp_path, number, text):
    lines = (tmp_path / f"wrong{number}.py").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_a_wrong_value_names_the_element(tmp_path):
    said = _wrong(tmp_path, 1, "a[i] + 10.0", "a[i] + 1.0")
    assert said == ("Under InOrder(): out[0] is 1.0 but should be 10.0 (8 of 8 elements are "
                    "wrong).")


def test_a_missing_guard(tmp_path):
    said = _wrong(tmp_path, 2, "    if g < n:\n        out[g]", "    if True:\n        out[g]")
    assert said.startswith("An invocation reads a[13], past the end of a (length 13), at line")
    assert "guard the access with `if i < n:`" in said


def test_a_missing_barrier_before_the_reads(tmp_path):
    said = _wrong(tmp_path, 3, "    await workgroup_barrier()", "    pass")
    write, read = _line(tmp_path, 3, "tile[i] = a"), _line(tmp_path, 3, "total + tile[k]")
    assert said.startswith("Missing barrier: one invocation writes tile[")
    assert f"(line {write}: `tile[i] = a[global_invocation_id.x]`)" in said
    assert f"reads it (line {read}:" in said
    assert "Put `await workgroup_barrier()` after the writes and before the reads." in said


def test_everybody_writing_the_sum(tmp_path):
    said = _wrong(tmp_path, 3, "    if i == 0:\n", "    if True:\n")
    assert said.startswith("Several invocations write out[0]")
    assert "Let one invocation write it" in said


def test_a_barrier_in_a_branch(tmp_path):
    said = _wrong(tmp_path, 4, "    await workgroup_barrier()\n    if i < 4:\n",
                  "    if i < 4:\n        await workgroup_barrier()\n")
    line = _line(tmp_path, 4, "await workgroup_barrier()")
    assert said.startswith(f"A barrier is reached by only some invocations of the workgroup "
                           f"(line {line}: `await workgroup_barrier()`)")
    assert "move `await workgroup_barrier()` out of the `if`" in said


def test_the_starter_of_the_branch_puzzle_gets_the_branch_sentence(tmp_path):
    path = tmp_path / "starter.py"
    path.write_text(puzzles.get(4).starter)
    assert puzzles.check(4, path).message.startswith("A barrier is reached by only some")


def test_a_scan_without_its_middle_barrier(tmp_path):
    said = _wrong(tmp_path, 5, "        await workgroup_barrier()  # everybody has read",
                  "        pass  # everybody has read")
    assert said.startswith("Missing barrier: an invocation overwrites tile[")
    assert f"line {_line(tmp_path, 5, 'tile[i] = v')}" in said
    assert "after the reads and before the next writes" in said


def test_a_scan_without_its_last_barrier(tmp_path):
    said = _wrong(tmp_path, 5, "        await workgroup_barrier()  # everybody has written",
                  "        pass  # everybody has written")
    assert said.startswith("Missing barrier: one invocation writes tile[")
    assert "after the writes and before the reads" in said


def test_a_lost_update(tmp_path):
    said = _wrong(tmp_path, 6, "await atomic_add(ptr(count, 0), 1)", "count[0] = count[0] + 1")
    assert said.startswith("Lost update: several invocations update count[0] at the same time")
    assert "`await atomic_add(ptr(count, 0), 1)`" in said


@pytest.mark.parametrize("which, sentence", [
    ("# the tiles are complete", "Missing barrier: one invocation writes t"),
    ("# everybody is done", "Missing barrier: an invocation overwrites t"),
])
def test_a_matmul_missing_either_barrier(tmp_path, which, sentence):
    said = _wrong(tmp_path, 7, f"await workgroup_barrier()  {which}", f"pass  {which}")
    assert said.startswith(sentence)


def test_a_derivative_in_a_branch(tmp_path):
    store = "out[local_invocation_id.y * 4 + local_invocation_id.x] = "
    said = _wrong(tmp_path, 8, f"    {store}", f"    if x < 3:\n        {store}")
    assert said.startswith("A derivative (dpdx, dpdy, fwidth) is called by only some "
                           "invocations of a 2x2 quad")


def test_the_exact_derivative_is_not_a_gpu_derivative(tmp_path):
    said = _wrong(tmp_path, 8, "await ash.fwidth(v)", "2 * x + 3")
    assert "out holds the exact derivative 2x + 3" in said


def test_a_lock_taken_with_a_load_then_a_store(tmp_path):
    said = _wrong(tmp_path, 10,
                  "    while await atomic_exchange(ptr(lock, 0), 1) != 0:  # test and set in "
                  "one atomic\n        pass\n",
                  "    while await atomic_load(ptr(lock, 0)) != 0:\n        pass\n"
                  "    await atomic_store(ptr(lock, 0), 1)\n")
    assert "two invocations were in the critical section at once" in said
    assert "Take the lock with ONE atomic" in said


def test_a_lock_never_released(tmp_path):
    said = _wrong(tmp_path, 10, "    await atomic_store(ptr(lock, 0), 0)  # release", "")
    assert said.startswith(f"An invocation spins forever (line {_line(tmp_path, 10, 'while')})")
    assert "Release the lock" in said


def test_the_checker_explores_random_seeds_and_pct_depths():
    """Not kinder than a GPU: besides in order and reverse, six Random seeds and PCT at depths
    1-4 (two seeds each), which the reference solutions pass (test_the_solution_passes; a
    spin lock too: PCT is fair)."""
    schedules = puzzles.get(10).schedules()
    assert [repr(s) for s in schedules[:2]] == ["InOrder()", "Reverse()"]
    assert {s.seed for s in schedules if type(s) is ash.Random} >= set(range(1, 7))
    assert sorted((s.depth, s.seed) for s in schedules if type(s) is ash.PCT) == [
        (d, s) for d in (1, 2, 3, 4) for s in (1, 2)]


def test_the_spin_lock_solution_is_solved_under_pct(tmp_path):
    verdict = puzzles.check(10, FILES[10])
    assert verdict.passed and verdict.runs == len(puzzles.get(10).schedules())
    assert "(in order, reverse, random and PCT)" in verdict.message


def test_a_file_without_the_kernel_is_a_clear_error(tmp_path):
    path = tmp_path / "empty.py"
    path.write_text("x = 1\n")
    with pytest.raises(puzzles.PuzzleFileError, match="named 'add_ten'.*no compute kernel"):
        puzzles.check(1, path)
    with pytest.raises(puzzles.PuzzleFileError, match="puzzles 1 to 10, not 11"):
        puzzles.get(11)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "asyncshader", "puzzle", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_the_cli_prints_a_starter_and_checks_files(tmp_path):
    done = _cli(6, "--starter")
    assert done.returncode == 0 and "async def count_odd" in done.stdout
    path = tmp_path / "mine.py"
    path.write_text(done.stdout)
    done = _cli(6, path)
    assert done.returncode == 1
    assert "Puzzle 6 (a lost update): not yet" in done.stdout
    done = _cli(6, FILES[6])
    assert done.returncode == 0 and "solved" in done.stdout
    done = _cli(6, tmp_path / "missing.py")
    assert done.returncode == 2 and "no such file" in done.stderr


def test_a_vote_in_a_branch(tmp_path):
    _ready(9)
    said = _wrong(tmp_path, 9, "    every = await ash.subgroup_all(positive)\n",
                  "    every = False\n    if positive:\n"
                  "        every = await ash.subgroup_all(positive)\n")
    line = _line(tmp_path, 9, "every = await")
    assert said.startswith(f"subgroup_all() is called by only some invocations of the "
                           f"subgroup (line {line}: `every = await ash.subgroup_all(positive)`")
    assert "Call it where every invocation of the subgroup reaches it" in said


def test_docs_list_every_puzzle_with_its_statement():
    text = " ".join((ROOT / "docs" / "puzzles.md").read_text().split())
    for p in puzzles.PUZZLES:
        assert f"## {p.number}. {p.title.capitalize()}" in text
        assert " ".join(p.statement.split()) in text, p.number
