"""A :class:`~asyncshader.views.timeline.Timeline` as compact terminal text (with rich).

A row per invocation (under its workgroup), a column per scheduler step (or per few steps when
the run is wider than the terminal)::

    █ ran   · waited at a rendezvous   │ barrier released   ◆ atomic landed   ✗ data race

then the races with both source lines. Needs the ``cli`` extra (rich).
"""

from __future__ import annotations

import io
import math
from typing import Any

from .svg import PALETTE, RACE_COLOUR, race_text

#: what a column shows when it covers several steps: the most important mark wins
_RANK = {" ": 0, "·": 1, "█": 2, "◆": 3, "✗": 4}


def _rich() -> Any:
    try:
        import rich.console
        import rich.text
    except ImportError:  # pragma: no cover - the cli and test extras install rich
        raise ImportError("Timeline.to_terminal needs rich: pip install 'asyncshader[cli]'"
                          ) from None
    return rich


def lane_marks(tl: Any) -> dict[int, list[str]]:
    """Per invocation, one mark per step (see the module's legend; barriers aside)."""
    n = max(tl.steps, 1)
    marks = {key: [" "] * n for key in tl.lanes}
    for m in tl.meetings:
        for key, at in m.arrived.items():
            row = marks.get(key)
            if row is not None:
                for t in range(at, min(m.step, n)):
                    row[t] = "·"
    for key, at in tl.stuck.items():
        marks[key][at:] = ["·"] * (n - at)
    for seg in tl.segments:
        marks[seg.key][seg.step] = "█"
    for a in tl.atomics:
        if a.step < n:
            marks[a.key][a.step] = "◆"
    for a in tl.accesses:
        if a.racy and a.step < n:
            marks[a.key][a.step] = "✗"
    return marks


def render_terminal(tl: Any, *, width: int | None = None, color: bool = False) -> str:
    """The text view of ``tl`` (ANSI colours when ``color``)."""
    rich = _rich()
    tl.ensure_races()
    width = width or 100
    label_w = 16
    per = max(1, math.ceil(max(tl.steps, 1) / max(width - label_w - 12, 10)))
    buf = io.StringIO()
    console = rich.console.Console(file=buf, width=width, force_terminal=color,
                                   color_system="standard" if color else None,
                                   highlight=False, soft_wrap=True)
    Text = rich.text.Text
    console.print(Text(f"timeline of {tl.kernel}: {tl.steps} steps"
                       + (f", {per} per column" if per > 1 else "")
                       + (" (truncated at max_steps)" if tl.truncated else ""), style="bold"))
    console.print("█ ran  · waited at a rendezvous  │ barrier released  ◆ atomic  "
                  "✗ data race")
    marks = lane_marks(tl)
    barriers: dict[int, set[int]] = {}
    for m in tl.meetings:
        barriers.setdefault(m.unit, set()).add(m.step // per)
    unit = None
    for key, lane in sorted(tl.lanes.items(), key=lambda kv: (kv[1].unit, kv[0])):
        if lane.unit != unit:
            unit = lane.unit
            console.print(Text(lane.unit_label, style="bold"))
        row = Text(f"  inv {lane.lane:<{label_w - 6}}")
        cols = marks[key]
        for c in range(math.ceil(len(cols) / per)):
            if c in barriers.get(unit, ()):
                row.append("│", style="bold")
            mark = max(cols[c * per:(c + 1) * per], key=_RANK.__getitem__)
            style = (f"bold {RACE_COLOUR}" if mark == "✗" else
                     PALETTE[lane.lane % len(PALETTE)] if mark != "·" else "dim")
            row.append(mark, style=style)
        console.print(row)
    if tl.races:
        console.print(Text("Data races:", style=f"bold {RACE_COLOUR}"))
        shown = set()
        for r in tl.races:
            f = r.finding
            lines = (f.race, f.memory, tuple(sorted({tl.accesses[r.first].line,
                                                     tl.accesses[r.second].line})))
            if lines not in shown:
                shown.add(lines)
                console.print(Text("  " + race_text(tl, r), style=RACE_COLOUR))
    else:
        console.print("No data race in this run.")
    return buf.getvalue()
