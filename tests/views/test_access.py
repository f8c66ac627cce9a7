"""Access diagrams: panels per barrier phase, cells coloured by their writer, arrows read ->
written, racing cells outlined in red, the table; SVG and PNG."""

import xml.etree.ElementTree as ET

import pytest
from PIL import Image

import asyncshader as ash
from asyncshader.views.svg import RACE_COLOUR

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str):
    return ET.fromstring(svg)


def of_class(root, tag, cls):
    return [e for e in root.iter(f"{{{NS['s']}}}{tag}") if cls in e.get("class", "").split()]


def test_missing_barrier_diagram(missing_barrier_run, tmp_path):
    tl, _ = missing_barrier_run
    path = tmp_path / "d.svg"
    svg = ash.access_diagram(tl, path)
    assert path.read_text() == svg
    root = parse(svg)
    # phase 0 (before the first barrier) and one phase after each of the three barriers
    assert len(of_class(root, "rect", "panel")) == 4
    titles = [t.text for t in of_class(root, "text", "panel-title")]
    assert titles[0] == "phase 0" and titles[1].startswith("phase 1 (after the barrier at line")
    cells = of_class(root, "rect", "cell")
    racy = {(c.get("data-memory"), int(c.get("data-cell")), int(c.get("data-panel")))
            for c in cells if c.get("data-race")}
    # invocations 4-7 store scratch[4..7] while 0-3 read them: those four cells race
    assert racy == {("scratch", c, 0) for c in range(4, 8)}
    assert all(c.get("stroke") == RACE_COLOUR for c in cells if c.get("data-race"))
    # in phase 0 scratch[k] was written last by invocation k: its colour is k's swatch in the
    # table
    table_rows = [e for e in root.iter(f"{{{NS['s']}}}rect") if e.get("stroke") == "none"]
    swatch = [r.get("fill") for r in table_rows]
    assert len(swatch) == 8
    phase0 = {int(c.get("data-cell")): c.get("fill") for c in cells
              if c.get("data-memory") == "scratch" and c.get("data-panel") == "0"}
    assert [phase0[k] for k in range(8)] == swatch
    assert len(set(swatch)) == 8 and RACE_COLOUR not in swatch
    # arrows of phase 0: inp[k] -> scratch[k] (8), and scratch[k+4] -> scratch[k] for k < 4;
    # red: those touching a racing access (the stores of 4-7, the reads of scratch[4..7])
    flows = of_class(root, "path", "flow")
    assert len(flows) == 8 + 4 + 2 + 1 + 1  # + phase 1 (2 sums), 2 (1 sum), 3 (the result)
    red = of_class(root, "path", "race-flow")
    assert len(red) == 8 and all(e.get("stroke") == RACE_COLOUR for e in red)
    # the table: a row per invocation; the phase-0 cells of all eight race
    assert len(of_class(root, "rect", "table-cell")) == 8 * 4
    assert len([e for e in of_class(root, "rect", "table-cell") if "race-cell" in
                e.get("class")]) == 8


def test_race_free_diagram_has_no_red(reduce_ok_run):
    tl, _ = reduce_ok_run
    root = parse(ash.access_diagram(tl))
    assert len(of_class(root, "rect", "panel")) == 5
    assert not [c for c in of_class(root, "rect", "cell") if c.get("data-race")]
    assert RACE_COLOUR not in ash.access_diagram(tl).split("</defs>")[1]


def red_pixels(path) -> int:
    img = Image.open(path).convert("RGB")
    target = tuple(int(RACE_COLOUR[i:i + 2], 16) for i in (1, 3, 5))
    return sum(n for n, rgb in img.getcolors(1 << 24)
               if all(abs(a - b) <= 24 for a, b in zip(rgb, target)))


def test_png(missing_barrier_run, reduce_ok_run, tmp_path):
    tl, _ = missing_barrier_run
    ash.access_diagram(tl, tmp_path / "racy.png")
    ok, _ = reduce_ok_run
    ash.access_diagram(ok, tmp_path / "ok.png")
    with Image.open(tmp_path / "racy.png") as img:
        assert img.format == "PNG" and img.width > 800
    assert red_pixels(tmp_path / "racy.png") > 500
    assert red_pixels(tmp_path / "ok.png") == 0


def test_bad_arguments(missing_barrier_run):
    tl, result = missing_barrier_run
    with pytest.raises(TypeError, match=r"ash.Timeline\(\)"):
        ash.access_diagram(result)
    with pytest.raises(ValueError, match=r"workgroups \[0\]"):
        ash.access_diagram(tl, workgroup=3)
    with pytest.raises(ValueError, match="'nope'"):
        ash.access_diagram(tl, memories=["nope"])
    root = parse(ash.access_diagram(tl, memories=["scratch"]))
    assert {c.get("data-memory") for c in of_class(root, "rect", "cell")} == {"scratch"}
