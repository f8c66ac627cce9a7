"""A :class:`~asyncshader.views.timeline.Timeline` as SVG, and as a self-contained HTML page.

The picture: a lane per invocation (grouped by workgroup), a column per scheduler step. A
filled cell is a step the invocation ran (its colour; hover: the source lines it ran); a dashed
grey line is time spent waiting at a rendezvous; a dark vertical bar across a workgroup's lanes
is a barrier column (the moment the rendezvous released everybody; hover: which line, and whom
everybody waited for); a small diamond is an atomic; a red cell and a red link are a data race
(hover: both lines). The HTML page adds the list of races with both source lines and a small
inline script (no network, no external file) that counts what is drawn and highlights a race's
two accesses when the pointer is over it.
"""

from __future__ import annotations

import html
import linecache
from typing import Any

from .._core.diagnostics import _short

#: colour of a data race (cells, links, list): nothing else in the pictures uses red
RACE_COLOUR = "#e4002b"
#: colour of a barrier column
BARRIER_COLOUR = "#1f2d3d"
#: per-invocation colours (no red among them: red means a race)
PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#b279a2", "#9d755d", "#72b7b2", "#eeca3b",
           "#7f7f7f", "#439894", "#83bcb6", "#d6a5c9", "#bab0ac", "#2f6690", "#a0c15a",
           "#8e6c8a", "#d4a373")

LANE_H = 18
LEFT = 150
TOP = 34


def colour(lane: int) -> str:
    """The colour of the invocation in lane ``lane`` of its workgroup."""
    return PALETTE[lane % len(PALETTE)]


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def source(file: str, line: int) -> str:
    """``"line: text"`` of a source line (for hovers and lists)."""
    return f"{line}: {' '.join(linecache.getline(file, line).split())}"


class _Layout:
    """Where each lane and step sits in the picture."""

    def __init__(self, tl: Any) -> None:
        self.cw = max(6, min(22, 1000 // max(tl.steps, 1)))
        self.y: dict[int, int] = {}
        self.units: dict[int, tuple[int, int]] = {}  # unit -> (top, bottom)
        y = TOP
        for key, lane in sorted(tl.lanes.items(), key=lambda kv: (kv[1].unit, kv[0])):
            if lane.unit not in self.units:
                y += 16 if self.units else 0
                self.units[lane.unit] = (y, y)
            self.y[key] = y
            y += LANE_H
            self.units[lane.unit] = (self.units[lane.unit][0], y)
        self.height = y + 12
        self.width = LEFT + self.cw * max(tl.steps, 1) + 20

    def x(self, step: float) -> float:
        return LEFT + step * self.cw


def timeline_svg(tl: Any, *, standalone: bool = True) -> str:
    """The SVG picture of ``tl`` (with an XML namespace when ``standalone``)."""
    tl.ensure_races()
    lay = _Layout(tl)
    out = [f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="{lay.width}" '
           f'height="{lay.height}" viewBox="0 0 {lay.width} {lay.height}" '
           'font-family="sans-serif" font-size="11">',
           f'<rect width="{lay.width}" height="{lay.height}" fill="#ffffff"/>']
    # the step axis
    every = max(1, 40 // lay.cw)
    for t in range(0, max(tl.steps, 1), every):
        out.append(f'<text x="{lay.x(t) + 1}" y="{TOP - 8}" fill="#555">{t}</text>')
    out.append(f'<text x="4" y="{TOP - 8}" fill="#555">step</text>')
    for u, (top, _bottom) in lay.units.items():
        label = next(lane.unit_label for lane in tl.lanes.values() if lane.unit == u)
        out.append(f'<text class="unit" x="4" y="{top - 3 if top > TOP else TOP - 20}" '
                   f'font-weight="bold" fill="#333">{esc(label)}</text>')
    by_key: dict[int, list] = {}
    for seg in tl.segments:
        by_key.setdefault(seg.key, []).append(seg)
    short: dict[str, str] = {}  # file -> its short name
    for key, lane in sorted(tl.lanes.items()):
        y = lay.y[key]
        c = colour(lane.lane)
        file = short.get(lane.file) or short.setdefault(lane.file, esc(_short(lane.file)))
        out.append(f'<g class="lane" data-key="{key}" data-unit="{lane.unit}" '
                   f'data-lane="{lane.lane}">')
        out.append(f'<title>{esc(lane.label)}</title>')
        out.append(f'<text x="8" y="{y + 13}" fill="{c}">invocation {lane.lane}</text>')
        out.append(f'<line x1="{LEFT}" x2="{lay.width - 20}" y1="{y + LANE_H / 2}" '
                   f'y2="{y + LANE_H / 2}" stroke="#eeeeee"/>')
        for seg in by_key.get(key, ()):
            lines = sorted({seg.line_from, seg.line_to})
            text = "\n".join(source(lane.file, ln) for ln in range(lines[0], lines[-1] + 1)
                             ) if lines[-1] - lines[0] < 12 else source(lane.file, lines[0])
            then = seg.ended + (f" ({seg.op})" if seg.op else "")
            out.append(f'<rect class="seg" x="{lay.x(seg.step)}" y="{y + 2}" '
                       f'width="{lay.cw - 1}" height="{LANE_H - 4}" fill="{c}">'
                       f'<title>invocation {lane.lane}, step {seg.step} '
                       f'({file}), then {esc(then)}:\n{esc(text)}</title>'
                       '</rect>')
        out.append('</g>')
    out += _meetings(tl, lay)
    out += _races(tl, lay)
    out += _atomics(tl, lay)
    out.append('</svg>')
    return "\n".join(out)


def _meetings(tl: Any, lay: _Layout) -> list[str]:
    out = []
    for m in tl.meetings:
        top, bottom = lay.units[m.unit]
        for key, at in m.arrived.items():
            if at < m.step and key in lay.y:
                y = lay.y[key] + LANE_H / 2
                out.append(f'<line class="wait" x1="{lay.x(at)}" x2="{lay.x(m.step)}" '
                           f'y1="{y}" y2="{y}" stroke="#888" stroke-dasharray="3 2"/>')
        last = tl.lanes[m.last]
        x = lay.x(m.step) - 1.5
        out.append(f'<g class="barrier" data-op="{esc(m.op)}" data-line="{m.line}" '
                   f'data-unit="{m.unit}"><title>{esc(m.op)} at line {m.line} '
                   f'({esc(m.group)}): released after step {m.step - 1}; everybody waited for '
                   f'invocation {last.lane}, the last to arrive\n'
                   f'{esc(source(last.file, m.line))}</title>'
                   f'<rect x="{x}" y="{top}" width="3" height="{bottom - top}" '
                   f'fill="{BARRIER_COLOUR}"/></g>')
    for key, at in tl.stuck.items():
        y = lay.y[key] + LANE_H / 2
        out.append(f'<line class="wait stuck" x1="{lay.x(at)}" x2="{lay.x(max(tl.steps, at))}" '
                   f'y1="{y}" y2="{y}" stroke="#888" stroke-dasharray="3 2"><title>still '
                   'waiting at a rendezvous when the run ended</title></line>')
    return out


def _atomics(tl: Any, lay: _Layout) -> list[str]:
    out = []
    for a in tl.atomics:
        if a.key not in lay.y:
            continue
        cx, cy = lay.x(a.step) + 3, lay.y[a.key] + 3
        out.append(f'<path class="atomic" d="M{cx} {cy - 3} L{cx + 3} {cy} L{cx} {cy + 3} '
                   f'L{cx - 3} {cy} Z" fill="#ffffff" stroke="#000000" stroke-width="1">'
                   f'<title>{esc(a.op)} {esc(a.memory)}[{esc(a.index)}] at line {a.line}: '
                   f'{esc(a.old)} -&gt; {esc(a.new)}</title></path>')
    return out


#: at most this many race links are drawn (every racing access is still marked)
MAX_LINKS = 200


def _races(tl: Any, lay: _Layout) -> list[str]:
    """Each racing access as a red band in its step's cell; one red link per racing access
    to the latest earlier access it races with (at most :data:`MAX_LINKS`)."""
    out = []
    acc = tl.accesses
    marked = set()
    linked = set()
    h = LANE_H // 2
    for n, r in enumerate(tl.races):
        a, b = acc[r.first], acc[r.second]
        if a.seq > b.seq:
            a, b = b, a
        out.append(f'<g class="race" data-race="{n}"><title>{esc(race_text(tl, r))}</title>')
        for x in (a, b):
            if x.seq in marked or x.key not in lay.y:
                continue
            marked.add(x.seq)
            out.append(f'<rect class="race-mark" x="{lay.x(x.step)}" '
                       f'y="{lay.y[x.key] + LANE_H - h - 1}" width="{lay.cw - 1}" '
                       f'height="{h}" fill="{RACE_COLOUR}" data-memory="{esc(x.memory)}" '
                       f'data-line="{x.line}"/>')
        if b.seq not in linked and len(linked) < MAX_LINKS and _latest(tl, r, a, b):
            linked.add(b.seq)
            out.append(f'<line class="race-link" x1="{lay.x(a.step) + lay.cw / 2}" '
                       f'y1="{lay.y[a.key] + LANE_H - h / 2}" '
                       f'x2="{lay.x(b.step) + lay.cw / 2}" y2="{lay.y[b.key] + LANE_H - h / 2}" '
                       f'stroke="{RACE_COLOUR}" stroke-width="1.5"/>')
        out.append('</g>')
    return out


def _latest(tl: Any, r: Any, a: Any, b: Any) -> bool:
    """Whether ``a`` is the latest access before ``b`` that races with it."""
    if a.key not in tl.lanes or b.key not in tl.lanes:
        return False
    partners = tl.partners.get(b.seq, ())
    return bool(partners) and max(p for p in partners if p < b.seq) == a.seq


def race_text(tl: Any, r: Any) -> str:
    """A race pair in words, with both source lines."""
    acc = tl.accesses
    a, b = acc[r.first], acc[r.second]
    f = r.finding
    la, lb = tl.lanes[a.key], tl.lanes[b.key]
    return (f"{f.race} data race on {f.address_space} memory {a.memory}[{a.index}]: "
            f"{a.kind} by invocation {la.lane} at {source(la.file, a.line)}  /  "
            f"{b.kind} by invocation {lb.lane} at {source(lb.file, b.line)}")


_STYLE = """
body { font-family: sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; } .legend span { margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; vertical-align: middle; }
#races li { color: RACE; margin: 4px 0; } #races code { color: #222; }
.race.hot .race-mark, .race.hot .race-link { stroke: #000; stroke-width: 2; }
li.hot { background: #fde2e6; }
#scroll { overflow-x: auto; border: 1px solid #ddd; }
""".replace("RACE", RACE_COLOUR)

_SCRIPT = """
(function () {
  var svg = document.querySelector('svg.timeline');
  var lanes = svg.querySelectorAll('g.lane').length;
  var barriers = svg.querySelectorAll('g.barrier').length;
  var races = svg.querySelectorAll('g.race').length;
  var marks = svg.querySelectorAll('rect.race-mark').length;
  var listed = document.querySelectorAll('#races li.race-item').length;
  var summary = document.getElementById('summary');
  summary.textContent = lanes + ' lanes, ' + barriers + ' barrier columns, ' + listed +
      (listed === 1 ? ' data race' : ' data races') + ' (pairs of source lines, listed below)' +
      ' over ' + races + ' racing pairs of accesses (' + marks + ' accesses marked)';
  summary.setAttribute('data-lanes', lanes);
  summary.setAttribute('data-barriers', barriers);
  summary.setAttribute('data-listed', listed);
  summary.setAttribute('data-races', races);
  function hot(n, on) {
    document.querySelectorAll('[data-race="' + n + '"]').forEach(function (el) {
      el.classList.toggle('hot', on);
    });
  }
  document.querySelectorAll('[data-race]').forEach(function (el) {
    var n = el.getAttribute('data-race');
    el.addEventListener('mouseenter', function () { hot(n, true); });
    el.addEventListener('mouseleave', function () { hot(n, false); });
  });
  document.body.setAttribute('data-ready', 'yes');
})();
"""


def timeline_html(tl: Any, *, title: str | None = None) -> str:
    """A self-contained HTML page showing ``tl`` (inline SVG, CSS and script; no network)."""
    svg = timeline_svg(tl)
    title = title or f"asyncshader timeline: {tl.kernel}"
    items = []
    seen = set()
    for n, r in enumerate(tl.races):
        key = (r.finding.race, r.finding.memory, tuple(sorted({tl.accesses[r.first].line,
                                                               tl.accesses[r.second].line})))
        if key in seen:
            continue
        seen.add(key)
        items.append(f'<li class="race-item" data-race="{n}">{esc(race_text(tl, r))}</li>')
    if not items:
        items.append('<li class="no-race" style="color:#2a7">no data race in this run</li>')
    cfg = ", ".join(f"{k}={v}" for k, v in tl.config.items())
    race_key = (f'<span><span class="swatch" style="background:{RACE_COLOUR}"></span> data '
                'race (hover: both lines)</span>' if tl.races else "")
    note = ("<p><b>Recording stopped at max_steps</b>: the picture shows the start of the "
            "run only.</p>" if tl.truncated else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>{_STYLE}</style></head>
<body>
<h1>{esc(title)}</h1>
<p>{esc(cfg)}; {tl.steps} steps. <span id="summary">(script not run)</span></p>
<p class="legend"><span><span class="swatch" style="background:{PALETTE[0]}"></span>
a step an invocation ran (hover: its source lines)</span>
<span>- - - waiting at a rendezvous</span>
<span><span class="swatch" style="background:{BARRIER_COLOUR}"></span> barrier column
(released)</span><span>&#9671; atomic</span>
{race_key}</p>
{note}<div id="scroll">
{svg}
</div>
<h2>Data races</h2>
<ul id="races">
{chr(10).join(items)}
</ul>
<script>{_SCRIPT}</script>
</body></html>
"""
