"""explore(progress=...): a function, a bar (rich's, or lines without rich), or nothing."""

import builtins
import sys

from test_parallel import check_always_passes, racy_lock, setup

import asyncshader as ash
from asyncshader.exploration import progress as progress_module


def test_progress_true_without_rich_prints_a_line_per_tenth(monkeypatch, capsys):
    real_import = builtins.__import__

    def no_rich(name, *args, **kwargs):
        if name.startswith("rich"):
            raise ImportError("no rich here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_rich)
    monkeypatch.delitem(sys.modules, "rich.progress", raising=False)
    ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=40, workers=1,
                store=None, progress=True)
    lines = [l for l in capsys.readouterr().err.splitlines() if "runs" in l]
    assert lines[0] == "  ... 4/40 runs" and lines[-1] == "  ... 40/40 runs"
    assert len(lines) == 10


def test_the_default_shows_nothing_when_not_interactive(capsys, monkeypatch):
    monkeypatch.setattr(progress_module, "AUTO_RUNS", 1)
    ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=20, workers=1,
                store=None)
    assert capsys.readouterr().err == ""  # pytest's stderr is not a terminal


def test_the_default_shows_a_bar_when_interactive_and_rich_is_there(monkeypatch):
    shown = []

    class Bar:
        def __init__(self, total):
            shown.append(("start", total))

        def __call__(self, done, total):
            shown.append((done, total))

        def close(self):
            shown.append("closed")

    monkeypatch.setattr(progress_module, "ProgressBar", Bar)
    monkeypatch.setattr(progress_module, "_interactive", lambda: True)
    monkeypatch.setattr(progress_module, "_has_rich", lambda: True)
    ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=300, workers=1,
                store=None)
    assert shown[0] == ("start", 300) and shown[-2] == (300, 300) and shown[-1] == "closed"
    shown.clear()
    ash.explore(racy_lock, setup, check_always_passes, ash.Random(0), runs=30, workers=1,
                store=None)  # short: no bar
    assert shown == []
