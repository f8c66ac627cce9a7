"""Access diagrams: who read and wrote which memory cell, one panel per barrier phase, drawn
from an actual run recorded by a :class:`~asyncshader.views.timeline.Timeline` (in the spirit
of GPU-Puzzles' tables, but from what the shader did, races included).

Each panel shows, for one workgroup, the stretch between two of its rendezvous: every memory
the shader touched as a grid of cells (index in the corner); a cell written in that phase takes
the colour of the invocation that wrote it last; a cell read carries a dot per reader; an arrow
goes from each cell an invocation read to the cell it wrote next (its colour); a racing access
outlines its cell in red and turns its arrow red. Under the panels, a table lists per
invocation and phase what it read and wrote. SVG, or PNG with Pillow (the ``images`` extra).
"""

from __future__ import annotations

import os
from typing import Any

from .svg import PALETTE, RACE_COLOUR, esc

CELL = 30
GAP = 14
#: at most this many cells of one memory are drawn (the rest are counted in the title)
MAX_CELLS = 64
#: panels go on a new row past this width
WRAP = 1000


def colour(lane: int) -> str:
    return PALETTE[lane % len(PALETTE)]


class Canvas:
    """Shapes kept as data, written as SVG or painted with Pillow (the same picture)."""

    def __init__(self) -> None:
        self.items: list[tuple] = []
        self.width = 0.0
        self.height = 0.0

    def _grow(self, x: float, y: float) -> None:
        self.width, self.height = max(self.width, x), max(self.height, y)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str = "#999999", sw: float = 1, cls: str = "", title: str = "",
             data: str = "") -> None:
        self.items.append(("rect", x, y, w, h, fill, stroke, sw, cls, title, data))
        self._grow(x + w, y + h)

    def arrow(self, x1: float, y1: float, x2: float, y2: float, stroke: str, cls: str = "",
              title: str = "", bend: float = 0.0) -> None:
        """An arrow; ``bend`` > 0 curves it (to the left of its direction) by that much."""
        self.items.append(("arrow", x1, y1, x2, y2, stroke, cls, title, bend))

    def dot(self, x: float, y: float, r: float, fill: str, cls: str = "") -> None:
        self.items.append(("dot", x, y, r, fill, cls))

    def text(self, x: float, y: float, text: str, fill: str = "#222222", size: int = 11,
             bold: bool = False, cls: str = "") -> None:
        self.items.append(("text", x, y, text, fill, size, bold, cls))
        self._grow(x + 0.6 * size * len(text), y + 4)

    def svg(self) -> str:
        w, h = int(self.width) + 10, int(self.height) + 10
        colours = sorted({i[5] for i in self.items if i[0] == "arrow"})
        out = [f'<svg class="access-diagram" xmlns="http://www.w3.org/2000/svg" width="{w}" '
               f'height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">',
               f'<rect width="{w}" height="{h}" fill="#ffffff"/>', "<defs>"]
        for n, c in enumerate(colours):
            out.append(f'<marker id="head{n}" viewBox="0 0 10 10" refX="9" refY="5" '
                       f'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
                       f'<path d="M0 0 L10 5 L0 10 z" fill="{c}"/></marker>')
        out.append("</defs>")
        for item in self.items:
            kind = item[0]
            if kind == "rect":
                _, x, y, w_, h_, fill, stroke, sw, cls, title, data = item
                tip = f"<title>{esc(title)}</title>" if title else ""
                out.append(f'<rect class="{cls}" x="{x}" y="{y}" width="{w_}" height="{h_}" '
                           f'fill="{fill}" stroke="{stroke}" stroke-width="{sw}"{data}>{tip}'
                           '</rect>')
            elif kind == "arrow":
                _, x1, y1, x2, y2, stroke, cls, title, bend = item
                tip = f"<title>{esc(title)}</title>" if title else ""
                cx, cy = _control(x1, y1, x2, y2, bend)
                out.append(f'<path class="{cls}" d="M{x1:.1f} {y1:.1f} Q{cx:.1f} {cy:.1f} '
                           f'{x2:.1f} {y2:.1f}" fill="none" stroke="{stroke}" '
                           f'stroke-width="1.6" marker-end="url(#head{colours.index(stroke)})">'
                           f'{tip}</path>')
            elif kind == "dot":
                _, x, y, r, fill, cls = item
                out.append(f'<circle class="{cls}" cx="{x}" cy="{y}" r="{r}" fill="{fill}"/>')
            else:
                _, x, y, text, fill, size, bold, cls = item
                weight = ' font-weight="bold"' if bold else ""
                out.append(f'<text class="{cls}" x="{x}" y="{y}" font-size="{size}" '
                           f'fill="{fill}"{weight}>{esc(text)}</text>')
        out.append("</svg>")
        return "\n".join(out)

    def png(self, path: str | os.PathLike, scale: float = 2.0) -> None:
        """Paints the shapes with Pillow into ``path`` (PNG)."""
        try:
            from PIL import Image, ImageDraw, ImageFont
        except ImportError:
            raise ImportError("a PNG access diagram needs Pillow: pip install "
                              "'asyncshader[images]' (or write an .svg)") from None
        w, h = int((self.width + 10) * scale), int((self.height + 10) * scale)
        img = Image.new("RGB", (w, h), "white")
        d = ImageDraw.Draw(img)
        fonts: dict[int, Any] = {}

        def font(size: int) -> Any:
            if size not in fonts:
                try:
                    fonts[size] = ImageFont.load_default(size=int(size * scale))
                except TypeError:  # Pillow < 10.1: one bitmap size
                    fonts[size] = ImageFont.load_default()
            return fonts[size]

        s = scale
        for item in self.items:
            kind = item[0]
            if kind == "rect":
                _, x, y, w_, h_, fill, stroke, sw, *_ = item
                d.rectangle([x * s, y * s, (x + w_) * s, (y + h_) * s],
                            fill=None if fill == "none" else fill,
                            outline=None if stroke == "none" else stroke,
                            width=max(1, int(sw * s)))
            elif kind == "arrow":
                _, x1, y1, x2, y2, stroke, _, _, bend = item
                pts = _curve(x1, y1, x2, y2, bend)
                d.line([(px * s, py * s) for px, py in pts], fill=stroke, width=int(1.6 * s))
                (ax, ay), (bx, by) = pts[-2], pts[-1]
                _head(d, ax * s, ay * s, bx * s, by * s, stroke, 6 * s)
            elif kind == "dot":
                _, x, y, r, fill, _ = item
                d.ellipse([(x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s], fill=fill)
            else:
                _, x, y, text, fill, size, *_ = item
                d.text((x * s, (y - size) * s), text, fill=fill, font=font(size))
        img.save(path, format="PNG")


def _control(x1: float, y1: float, x2: float, y2: float, bend: float
             ) -> tuple[float, float]:
    """The control point of a quadratic curve bent ``bend`` to the left of x1,y1 -> x2,y2."""
    dx, dy = x2 - x1, y2 - y1
    n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    return (x1 + x2) / 2 + dy / n * bend * 2, (y1 + y2) / 2 - dx / n * bend * 2


def _curve(x1: float, y1: float, x2: float, y2: float, bend: float) -> list:
    """Points along the arrow (a straight line when ``bend`` is 0)."""
    if not bend:
        return [(x1, y1), (x2, y2)]
    cx, cy = _control(x1, y1, x2, y2, bend)
    return [((1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2,
             (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2)
            for t in (i / 16 for i in range(17))]


def _head(d: Any, x1: float, y1: float, x2: float, y2: float, fill: str, size: float) -> None:
    import math
    angle = math.atan2(y2 - y1, x2 - x1)
    pts = [(x2, y2)]
    for da in (2.6, -2.6):
        pts.append((x2 + size * math.cos(angle + da), y2 + size * math.sin(angle + da)))
    d.polygon(pts, fill=fill)


def access_diagram(timeline: Any, path: str | os.PathLike | None = None, *,
                   workgroup: int = 0, memories: list[str] | None = None) -> str:
    """The access diagram of one workgroup of a run recorded by ``timeline`` (an
    :class:`~asyncshader.Timeline` passed to the dispatch with ``instruments=[...]``).

    ``memories`` picks the buffers and workgroup variables to draw (default: every one the
    workgroup touched, workgroup variables first). Returns the SVG; with ``path``, writes it
    there, as PNG (needs Pillow) when ``path`` ends in ``.png``, else as SVG."""
    from .timeline import Timeline
    if not isinstance(timeline, Timeline):
        raise TypeError(f"access_diagram() draws a run recorded by an ash.Timeline(): pass "
                        f"the instrument you gave the dispatch with instruments=[tl], not "
                        f"{type(timeline).__name__}")
    tl = timeline
    tl.ensure_races()
    units = sorted({lane.unit for lane in tl.lanes.values()})
    if workgroup not in units:
        raise ValueError(f"access_diagram(workgroup={workgroup}): the timeline recorded "
                         f"workgroups {units} (flat index, in dispatch order)")
    keys = {k for k, lane in tl.lanes.items() if lane.unit == workgroup}
    acc = [a for a in tl.accesses if a.key in keys]
    touched = sorted({a.memory for a in acc},
                     key=lambda m: (tl.memories[m].space != "workgroup", m))
    if memories is None:
        memories = touched
    else:
        unknown = [m for m in memories if m not in tl.memories]
        if unknown:
            raise ValueError(f"access_diagram(memories=...): {unknown} not recorded; the run "
                             f"touched {sorted(tl.memories)}")
    canvas = Canvas()
    label = next(lane.unit_label for lane in tl.lanes.values() if lane.unit == workgroup)
    canvas.text(10, 18, f"Access diagram of {tl.kernel}, {label}", size=14, bold=True)
    canvas.text(10, 34, "cell colour: last writer in the phase; dots: readers; arrows: read "
                "-> written cell; red: data race", fill="#555555", size=10)
    panels = sorted({a.panel for a in acc}) or [0]
    barrier_lines = _barrier_lines(tl, workgroup)
    x, top = 10.0, 50.0
    bottom = 0.0
    for p in panels:
        title = f"phase {p}" + (f" (after the barrier at line {barrier_lines[p - 1]})"
                                if 0 < p <= len(barrier_lines) else "")
        if x > 10 and x > WRAP:  # the next row of panels
            x, top = 10.0, bottom + 24
        right, low = _panel(canvas, tl, [a for a in acc if a.panel == p], memories, x, top,
                            title, p)
        x = right + 24
        bottom = max(bottom, low)
    _table(canvas, tl, acc, panels, keys, bottom + 30)
    text = canvas.svg()
    if path is not None:
        if os.fspath(path).lower().endswith(".png"):
            canvas.png(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return text


def _barrier_lines(tl: Any, unit: int) -> list[int]:
    return [m.line for m in tl.meetings if m.unit == unit]


def _grid(shape: tuple[int, ...]) -> tuple[int, int]:
    """(rows, columns) a memory's cells are drawn in."""
    if len(shape) == 2:
        return shape[0], shape[1]
    n = min(int(_size(shape)), MAX_CELLS)
    cols = min(n, 16)
    return -(-n // cols), cols


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _panel(canvas: Canvas, tl: Any, acc: list, memories: list[str], x0: float, y0: float,
           title: str, panel: int) -> tuple[float, float]:
    canvas.text(x0, y0 + 12, title, size=12, bold=True, cls="panel-title")
    y = y0 + 24
    centre: dict[tuple[str, int], tuple[float, float]] = {}
    right = x0 + 120
    for name in memories:
        info = tl.memories[name]
        rows, cols = _grid(info.shape)
        total = _size(info.shape)
        more = "" if total <= rows * cols else f" (first {rows * cols} of {total} cells)"
        canvas.text(x0, y + 10, f"{name} ({info.space}){more}", size=10, fill="#444444")
        y += 24  # (room for the curved arrows between cells of one row)
        writer: dict[int, Any] = {}
        readers: dict[int, list] = {}
        racy: set[int] = set()
        for a in acc:
            if a.memory != name:
                continue
            for c in a.cells:
                if a.kind in ("load", "atomic_load"):
                    readers.setdefault(c, []).append(a)
                else:
                    writer[c] = a
                if a.racy:
                    racy.add(c)
        for c in range(min(total, rows * cols)):
            r, k = divmod(c, cols)
            cx, cy = x0 + k * CELL, y + r * CELL
            centre[(name, c)] = (cx + CELL / 2, cy + CELL / 2)
            w = writer.get(c)
            fill = colour(tl.lanes[w.key].lane) if w is not None else "#f7f7f7"
            who = [f"{a.kind} by invocation {tl.lanes[a.key].lane} at line {a.line}"
                   for a in readers.get(c, []) + ([w] if w else [])]
            data = (f' data-memory="{esc(name)}" data-cell="{c}" data-panel="{panel}"'
                    + (' data-race="1"' if c in racy else ""))
            canvas.rect(cx, cy, CELL, CELL, fill=fill,
                        stroke=RACE_COLOUR if c in racy else "#999999",
                        sw=3 if c in racy else 1,
                        cls="cell race-cell" if c in racy else "cell",
                        title=f"{name}[{c}]: " + ("; ".join(who) or "untouched"), data=data)
            canvas.text(cx + 2, cy + 10, str(c), size=8, fill="#333333")
            for n, a in enumerate(readers.get(c, [])[:6]):
                canvas.dot(cx + 5 + n * 4.5, cy + CELL - 5, 2,
                           colour(tl.lanes[a.key].lane), cls="reader")
        right = max(right, x0 + cols * CELL)
        y += rows * CELL + GAP
    _arrows(canvas, tl, acc, centre)
    canvas.rect(x0 - 6, y0 - 2, right - x0 + 12, y - y0 + 2, stroke="#cccccc", cls="panel")
    return right + 6, y


def _arrows(canvas: Canvas, tl: Any, acc: list, centre: dict) -> None:
    """From each cell an invocation read to the cell it wrote next (per invocation, in order)."""
    pending: dict[int, list] = {}
    drawn = set()
    for a in sorted(acc, key=lambda a: a.seq):
        if a.kind in ("load", "atomic_load"):
            pending.setdefault(a.key, []).append(a)
            continue
        reads = pending.pop(a.key, [])
        if a.kind not in ("load", "store"):  # an atomic read-modify-write reads its cell
            continue
        for r in reads:
            for rc in r.cells[:4]:
                for wc in a.cells[:4]:
                    src, dst = centre.get((r.memory, rc)), centre.get((a.memory, wc))
                    edge = (r.memory, rc, a.memory, wc, a.key)
                    if src is None or dst is None or src == dst or edge in drawn:
                        continue
                    drawn.add(edge)
                    race = r.racy or a.racy
                    stroke = RACE_COLOUR if race else colour(tl.lanes[a.key].lane)
                    same_row = abs(src[1] - dst[1]) < 1
                    canvas.arrow(*_shorten(src, dst, same_row), stroke,
                                 cls="flow race-flow" if race else "flow",
                                 title=f"invocation {tl.lanes[a.key].lane}: {r.memory}[{rc}] "
                                       f"(line {r.line}) -> {a.memory}[{wc}] (line {a.line})",
                                 bend=min(CELL * 0.5, abs(src[0] - dst[0]) * 0.25)
                                 * (1 if dst[0] > src[0] else -1) if same_row else 0.0)


def _shorten(src: tuple[float, float], dst: tuple[float, float], top: bool = False
             ) -> tuple[float, ...]:
    """The arrow from ``src`` to ``dst``, stopping short of the target cell's centre (from
    and to the cells' top edges when ``top``: a curve between cells of one row)."""
    (x1, y1), (x2, y2) = src, dst
    if top:
        return x1, y1 - CELL / 2, x2, y2 - CELL / 2 - 2
    dx, dy = x2 - x1, y2 - y1
    n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    k = min(CELL * 0.35, n / 2)
    return x1 + dx / n * 4, y1 + dy / n * 4, x2 - dx / n * k, y2 - dy / n * k


def _table(canvas: Canvas, tl: Any, acc: list, panels: list[int], keys: set[int],
           y: float) -> None:
    """Reads and writes per invocation (rows) and phase (columns)."""
    canvas.text(10, y, "Reads and writes per invocation", size=12, bold=True)
    y += 8
    colw = 270
    canvas.rect(10, y, 90, 18, fill="#eeeeee", cls="table-head")
    canvas.text(14, y + 13, "invocation", size=10, bold=True)
    for n, p in enumerate(panels):
        canvas.rect(100 + n * colw, y, colw, 18, fill="#eeeeee", cls="table-head")
        canvas.text(104 + n * colw, y + 13, f"phase {p}", size=10, bold=True)
    y += 18
    for key in sorted(keys):
        lane = tl.lanes[key]
        canvas.rect(10, y, 90, 18, fill="#ffffff", cls="table-row")
        canvas.rect(14, y + 5, 8, 8, fill=colour(lane.lane), stroke="none")
        canvas.text(26, y + 13, f"invocation {lane.lane}", size=10)
        for n, p in enumerate(panels):
            mine = [a for a in acc if a.key == key and a.panel == p]
            reads = [f"{a.memory}[{a.index}]" for a in mine if a.kind in ("load",
                                                                          "atomic_load")]
            writes = [f"{a.memory}[{a.index}]" for a in mine if a.kind not in ("load",
                                                                               "atomic_load")]
            text = ("R " + ", ".join(_few(reads)) if reads else "") + \
                ("  W " + ", ".join(_few(writes)) if writes else "")
            race = any(a.racy for a in mine)
            canvas.rect(100 + n * colw, y, colw, 18, fill="#ffffff",
                        stroke=RACE_COLOUR if race else "#999999", sw=2 if race else 1,
                        cls="table-cell race-cell" if race else "table-cell")
            canvas.text(104 + n * colw, y + 13, text.strip()[:52] or "-", size=9,
                        fill=RACE_COLOUR if race else "#222222")
        y += 18


def _few(items: list[str]) -> list[str]:
    seen = list(dict.fromkeys(items))
    return seen[:3] + ([f"+{len(seen) - 3}"] if len(seen) > 3 else [])
