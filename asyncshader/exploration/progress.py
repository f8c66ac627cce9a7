"""Progress of a long exploration: a rich progress bar when the terminal is interactive.

rich is optional (the ``cli`` extra); without it ``progress=True`` prints a line per tenth of
the runs to stderr, and the default shows nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

#: the default (``progress=None``) shows a bar for explorations of at least this many runs
AUTO_RUNS = 200


class ProgressBar:
    """``bar(done, total)`` after runs; ``bar.close()`` at the end. rich's bar when rich is
    installed, else a line per tenth of the runs on stderr."""

    def __init__(self, total: int) -> None:
        self.total, self.last = total, 0
        self.bar: Any = None
        try:
            from rich.progress import Progress
        except ImportError:
            return
        self.bar = Progress(transient=True)
        self.bar.start()
        self.task = self.bar.add_task("exploring", total=total)

    def __call__(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=total)
        elif done - self.last >= max(1, self.total // 10):
            self.last = done
            print(f"  ... {done:,}/{self.total:,} runs", file=sys.stderr)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def progress_for(progress: Any, runs: int) -> tuple[Callable[[int, int], None] | None,
                                                      Callable[[], None]]:
    """``(callback or None, close)`` for explore's ``progress=``: a function is called as it
    is; True shows a bar; None (the default) shows rich's bar when stderr is a terminal, rich
    is installed and the exploration has at least :data:`AUTO_RUNS` runs; False nothing."""
    if callable(progress):
        return progress, lambda: None
    if progress is None:
        progress = runs >= AUTO_RUNS and _interactive() and _has_rich()
    if not progress:
        return None, lambda: None
    bar = ProgressBar(runs)
    return bar, bar.close


def _interactive() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _has_rich() -> bool:
    try:
        import rich.progress  # noqa: F401
    except ImportError:
        return False
    return True
