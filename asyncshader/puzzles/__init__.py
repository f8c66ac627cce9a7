"""Ten graded GPU-synchronization puzzles, each with a checker that runs the student's kernel
under several schedules with the race detector and says what is wrong in one sentence.

``asyncshader puzzle N --starter`` prints puzzle N's starter file; ``asyncshader puzzle N
FILE`` checks a solution. From Python::

    from asyncshader import puzzles
    print(puzzles.get(3).statement)
    print(puzzles.check(3, "my_sum.py"))

docs/puzzles.md lists them; the solutions are in the repository's puzzles/solutions/.
"""

from __future__ import annotations

from typing import Any

from .advanced import P6, P7, P8, P10
from .basics import PUZZLES as _BASICS
from .checker import Puzzle, PuzzleFileError, Verdict, explain_error, explain_finding
from .checker import check as _check
from .vote import P9

#: the puzzles, in order (PUZZLES[n - 1] is puzzle n)
PUZZLES: list[Puzzle] = [*_BASICS, P6, P7, P8, P9, P10]


def get(number: int) -> Puzzle:
    """Puzzle ``number`` (1 to 10)."""
    if not isinstance(number, int) or not 1 <= number <= len(PUZZLES):
        raise PuzzleFileError(f"there are puzzles 1 to {len(PUZZLES)}, not {number!r}")
    return PUZZLES[number - 1]


def check(number: int, source: Any) -> Verdict:
    """Checks ``source`` (a file path, a module or the kernel) against puzzle ``number``."""
    puzzle = get(number)
    if puzzle.needs is not None:
        return Verdict(puzzle, False, f"This puzzle needs the {puzzle.needs} built-ins, which "
                       "this version of asyncshader does not have yet.")
    return _check(puzzle, source)


__all__ = ["PUZZLES", "Puzzle", "PuzzleFileError", "Verdict", "check", "explain_error",
           "explain_finding", "get"]
