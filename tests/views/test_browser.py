"""The pictures as a person sees them: the HTML timeline and the access diagram opened in
headless Chromium. ``--dump-dom`` gives the live DOM after the page's script ran (it counts
what is drawn into #summary), ``--screenshot`` the pixels: racy_counter's race and a reduction's
missing barrier must be visible, and a race-free run must show no race colour at all."""

import re

from PIL import Image

import asyncshader as ash
from asyncshader.views.svg import BARRIER_COLOUR, RACE_COLOUR


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def pixels_near(path, colour: str, tol: int = 24) -> int:
    """How many pixels of the screenshot are within ``tol`` of ``colour`` per channel."""
    target = rgb(colour)
    with Image.open(path) as img:
        counts = img.convert("RGB").getcolors(1 << 24)
    return sum(n for n, c in counts if all(abs(a - b) <= tol for a, b in zip(c, target)))


def live_summary(dom: str) -> dict[str, int]:
    """The counts the page's script wrote into #summary (absent if the script did not run)."""
    tag = re.search(r'<span id="summary"[^>]*>', dom)
    assert tag, dom[:2000]
    found = dict(re.findall(r'data-(lanes|barriers|listed|races)="(\d+)"', tag.group(0)))
    assert set(found) == {"lanes", "barriers", "listed", "races"}, tag.group(0)
    return {k: int(v) for k, v in found.items()}


def test_counter_race_in_the_browser(counter_run, chromium, tmp_path):
    tl, _ = counter_run
    page = tmp_path / "counter.html"
    tl.to_html(page)
    dom = chromium(page, "--dump-dom")
    assert 'data-ready="yes"' in dom
    assert live_summary(dom) == {"lanes": 8, "barriers": 0, "listed": 2, "races": 84}
    assert ("8 lanes, 0 barrier columns, 2 data races (pairs of source lines, listed below) "
            "over 84 racing pairs of accesses (16 accesses marked)") in dom
    assert len(re.findall(r'<li class="race-item"', dom)) == 2  # both findings, with lines
    shot = tmp_path / "counter.png"
    chromium(page, f"--screenshot={shot}", "--window-size=1200,700")
    assert pixels_near(shot, RACE_COLOUR) > 16 * 60  # 16 marks of at least ~8x9 pixels


def test_missing_barrier_in_the_browser(missing_barrier_run, chromium, tmp_path):
    tl, _ = missing_barrier_run
    page = tmp_path / "reduce.html"
    tl.to_html(page)
    dom = chromium(page, "--dump-dom")
    # the header counts what the list shows: one race (one pair of lines), over 4 pairs of
    # accesses (the same two lines, four elements)
    assert live_summary(dom) == {"lanes": 8, "barriers": 3, "listed": 1, "races": 4}
    assert len(re.findall(r'<li class="race-item"', dom)) == 1
    assert "1 data race (pairs of source lines, listed below) over 4 racing pairs" in dom
    assert dom.count('class="race-mark"') == 8
    shot = tmp_path / "reduce.png"
    chromium(page, f"--screenshot={shot}", "--window-size=1200,700")
    assert pixels_near(shot, RACE_COLOUR) > 8 * 60
    assert pixels_near(shot, BARRIER_COLOUR, tol=8) > 3 * 2 * 8 * 18  # three bars, 8 lanes


def test_race_free_run_shows_no_race_colour(reduce_ok_run, chromium, tmp_path):
    tl, _ = reduce_ok_run
    page = tmp_path / "ok.html"
    tl.to_html(page)
    dom = chromium(page, "--dump-dom")
    assert live_summary(dom) == {"lanes": 8, "barriers": 4, "listed": 0, "races": 0}
    assert "no data race in this run" in dom
    shot = tmp_path / "ok.png"
    chromium(page, f"--screenshot={shot}", "--window-size=1200,700")
    assert pixels_near(shot, RACE_COLOUR) == 0
    assert pixels_near(shot, BARRIER_COLOUR, tol=8) > 4 * 2 * 8 * 18


def test_access_diagram_in_the_browser(missing_barrier_run, chromium, tmp_path):
    tl, _ = missing_barrier_run
    page = tmp_path / "diagram.svg"
    ash.access_diagram(tl, page)
    dom = chromium(page, "--dump-dom")
    assert dom.count('class="cell race-cell"') == 4
    shot = tmp_path / "diagram.png"
    chromium(page, f"--screenshot={shot}", "--window-size=1100,700")
    assert pixels_near(shot, RACE_COLOUR) > 4 * 100
