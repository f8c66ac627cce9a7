"""The fragment-stage picture examples, examples/fwidth_ring.py, examples/mip_level.py and
examples/quad_downsample.py: their returned arrays are checked against expectations derived
here, from the geometry and with numpy (never from asyncshader's own derivatives or quad
operations), and the PNGs they write are read back."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import load_example, quad_downsample_model

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"




def _pil():
    return pytest.importorskip("PIL.Image")


# =============================================================================== fwidth ring
@pytest.fixture(scope="module")
def ring_mod():
    return load_example("fwidth_ring.py")


@pytest.fixture(scope="module")
def ring(ring_mod, tmp_path_factory):
    png = tmp_path_factory.mktemp("ring") / "ring.png"
    return ring_mod.main(png)


@pytest.fixture(scope="module")
def ring_geometry(ring_mod):
    """Distances of every pixel centre, in pixels, computed here from the ring's constants."""
    m = ring_mod
    assert m.WIDTH == m.HEIGHT, "the checks below assume a square image (1 uv unit = WIDTH px)"
    n = m.WIDTH
    centres = (np.arange(n) + 0.5) / n
    u, v = np.meshgrid(centres, centres)
    r = np.hypot(u - m.CENTER[0], v - m.CENTER[1]) * n      # from the ring's centre
    radius, half = m.RADIUS * n, m.HALF_THICKNESS * n
    signed = np.abs(r - radius) - half                          # < 0 inside the ring
    return {"n": n, "r": r, "radius": radius, "half": half, "signed": signed}


def test_ring_shapes_and_odd_size(ring, ring_mod):
    n = ring_mod.WIDTH
    assert n % 2 == 1, "the example should use an odd size, to exercise helper invocations"
    for key in ("aa", "hard", "w"):
        assert ring[key].shape == (n, n) and ring[key].dtype == np.float32, key
    assert np.all((ring["aa"] >= 0) & (ring["aa"] <= 1))


def test_ring_alpha_is_one_on_the_centre_line_and_zero_far_away(ring, ring_geometry):
    aa, signed = ring["aa"], ring_geometry["signed"]
    # fwidth(d) is at most sqrt(2) pixels (|dx| + |dy| of a unit-slope distance), so pixels more
    # than 2 px inside the ring are fully covered and more than 2 px outside fully empty
    assert np.all(aa[signed < -2] == 1)
    assert np.all(aa[signed > 2] == 0)
    on_centre_line = np.abs(ring_geometry["r"] - ring_geometry["radius"]) < 0.5
    assert on_centre_line.sum() > 100 and np.all(aa[on_centre_line] == 1)
    assert aa[ring_geometry["r"] < 1].max() == 0           # the hole in the middle
    assert aa[0, 0] == 0 and aa[-1, -1] == 0                 # the corners


def test_hard_edge_has_no_partial_pixels(ring, ring_geometry):
    hard, signed = ring["hard"], ring_geometry["signed"]
    assert set(np.unique(hard).tolist()) == {0.0, 1.0}
    # step(0, d): covered exactly where the pixel centre is inside (up to f32 rounding at d=0)
    clear = np.abs(signed) > 1e-3
    np.testing.assert_array_equal(hard[clear], (signed[clear] < 0).astype(np.float32))
    assert ring["hard_partial_pixels"] == 0


def test_partial_pixels_lie_on_the_edges(ring, ring_geometry):
    aa, signed = ring["aa"], ring_geometry["signed"]
    partial = (aa > 0) & (aa < 1)
    # 0 < alpha < 1 only where |d| < fwidth(d) <= sqrt(2) px (+ the pixel-to-pixel change of d)
    assert np.abs(signed[partial]).max() < math.sqrt(2) + 0.1
    assert ring["max_edge_distance_px"] == pytest.approx(np.abs(signed[partial]).max(), abs=1e-4)
    # every edge crossing is anti-aliased: pixels within 0.5 px of an edge are partial
    assert np.all(partial[np.abs(signed) < 0.5])


def test_number_of_partial_pixels_is_perimeter_times_band(ring, ring_geometry):
    """The band where 0 < alpha < 1 is |d| < w with w = fwidth(d) = |dd/dx| + |dd/dy|. With d a
    distance (gradient of length 1, at angle t), w = |cos t| + |sin t| pixels, so the band is
    2 (|cos t| + |sin t|) pixels across: from 2 to 2 sqrt(2), 8 / pi on average over the angle.
    The two edges have lengths 2 pi (R + h) and 2 pi (R - h): 4 pi R pixels in all."""
    partial = int(((ring["aa"] > 0) & (ring["aa"] < 1)).sum())
    perimeter = 2 * math.pi * (ring_geometry["radius"] + ring_geometry["half"]) \
        + 2 * math.pi * (ring_geometry["radius"] - ring_geometry["half"])
    assert 2 * perimeter < partial < 2 * math.sqrt(2) * perimeter
    assert partial == pytest.approx(perimeter * 8 / math.pi, rel=0.04)
    assert ring["partial_pixels"] == partial


def test_fwidth_is_one_pixel_in_uv_units(ring, ring_geometry):
    w_px = ring["w"] * ring_geometry["n"]
    partial = (ring["aa"] > 0) & (ring["aa"] < 1)
    # near the edges d is a distance: fwidth = |cos t| + |sin t| pixels, between 1 and sqrt(2)
    assert w_px[partial].min() > 0.97 and w_px[partial].max() < math.sqrt(2) + 0.03
    # along the horizontal line through the centre, d changes by one pixel per pixel in x only
    row = ring_geometry["n"] // 2
    on_row = partial[row]
    assert on_row.sum() >= 8
    np.testing.assert_allclose(w_px[row][on_row], 1.0, atol=0.03)
    assert ring["fwidth_px"] == pytest.approx((w_px[partial].min(), w_px[partial].max()))


def test_alpha_is_monotone_across_the_edges(ring, ring_geometry):
    aa, n = ring["aa"], ring_geometry["n"]
    c = n // 2                                      # the centre pixel (n is odd)
    radius = ring_geometry["radius"]
    rays = {"right": aa[c, c:], "left": aa[c, c::-1], "down": aa[c:, c], "up": aa[c::-1, c],
            "diagonal": np.diagonal(aa)[c:], "anti-diagonal": np.diagonal(aa[::-1])[c:]}
    for name, ray in rays.items():
        step = math.sqrt(2) if "diagonal" in name else 1.0
        k = round(radius / step)                    # the sample nearest the centre line
        assert ray[k] == 1, name
        assert np.all(np.diff(ray[:k + 1]) >= 0), f"{name}: alpha must rise across the inner edge"
        assert np.all(np.diff(ray[k:]) <= 0), f"{name}: alpha must fall across the outer edge"
        ramp = ray[(ray > 0) & (ray < 1)]
        assert 4 <= ramp.size <= 8, name           # two edges, each 2 to 3 samples wide


def test_anti_aliasing_approaches_exact_coverage(ring, ring_geometry, ring_mod):
    """Exact coverage by 16x16 supersampling in numpy: both versions cover the ring's area, and
    the anti-aliased one is closer to the exact coverage, pixel by pixel, than the hard edge."""
    n, s = ring_geometry["n"], 16
    sub = ((np.arange(n)[:, None] + (np.arange(s) + 0.5)[None, :] / s) / n).ravel()
    u, v = np.meshgrid(sub, sub)
    r = np.hypot(u - ring_mod.CENTER[0], v - ring_mod.CENTER[1])
    exact = (np.abs(r - ring_mod.RADIUS) <= ring_mod.HALF_THICKNESS).reshape(n, s, n, s)
    exact = exact.mean(axis=(1, 3))
    area = 4 * math.pi * ring_geometry["radius"] * ring_geometry["half"]  # pi (R+h)^2 - pi (R-h)^2
    assert exact.sum() == pytest.approx(area, rel=0.005)
    assert ring["aa"].sum() == pytest.approx(area, rel=0.01)
    assert ring["hard"].sum() == pytest.approx(area, rel=0.02)
    rms = {k: float(np.sqrt(np.mean((ring[k] - exact) ** 2))) for k in ("aa", "hard")}
    assert rms["aa"] < 0.75 * rms["hard"], rms
    edge = (exact > 0) & (exact < 1)
    assert np.abs(ring["aa"] - exact)[edge].mean() < 0.7 * np.abs(ring["hard"] - exact)[edge].mean()


def test_fine_derivatives_give_the_same_band(ring_mod, ring):
    fine = ring_mod.render(derivatives="fine")
    partial = int(((fine["aa"] > 0) & (fine["aa"] < 1)).sum())
    assert partial == pytest.approx(ring["partial_pixels"], rel=0.02)
    assert np.abs(fine["aa"] - ring["aa"]).max() < 0.35     # only edge pixels move, a little
    assert np.array_equal(fine["hard"], ring["hard"])       # step() takes no derivative


def test_ring_png(ring, ring_mod):
    image_mod = _pil()
    path = ring["png"]
    assert path is not None and Path(path).is_file()
    n, z = ring_mod.WIDTH, ring_mod.ZOOM
    with image_mod.open(path) as im:
        assert im.format == "PNG" and im.mode == "RGB"
        assert im.size == (2 * n * z + 4 * z, n * z)
        pixels = np.asarray(im)
    np.testing.assert_array_equal(pixels, ring["image"])
    # the left half is the anti-aliased ring: more than two distinct colours; the right half two
    left, right = pixels[:, : n * z], pixels[:, -n * z:]
    assert len(np.unique(left.reshape(-1, 3), axis=0)) > 20
    assert len(np.unique(right.reshape(-1, 3), axis=0)) == 2
    assert Path(path).stat().st_size < 100_000


def test_ring_runs_without_pillow(ring_mod, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    out = ring_mod.main(tmp_path / "ring.png")
    assert out["png"] is None and not (tmp_path / "ring.png").exists()
    assert out["partial_pixels"] > 0
    assert "install Pillow" in capsys.readouterr().out


# ================================================================================ mip levels
@pytest.fixture(scope="module")
def mip_mod():
    return load_example("mip_level.py")


@pytest.fixture(scope="module")
def mip(mip_mod, tmp_path_factory):
    png = tmp_path_factory.mktemp("mip") / "mip.png"
    return mip_mod.main(png)


def uv_model(m, x, y):
    """The floor's uv, written out again here from the example's camera constants (float64)."""
    below = np.asarray(y, np.float64) + 0.5 - m.HORIZON
    u = (np.asarray(x, np.float64) + 0.5 - m.WIDTH / 2) * m.HEIGHT_OVER_TILE / below
    v = m.HEIGHT_OVER_TILE * m.FOCAL / below
    return np.stack(np.broadcast_arrays(u, v), axis=-1).astype(np.float32).astype(np.float64)


def lod_model(m, mode: str) -> np.ndarray:
    """textureSample's LOD for every pixel, from finite differences between neighbouring pixels:
    coarse takes both differences at the quad's upper-left pixel; fine takes dpdx along the
    pixel's own row and dpdy along its own column of the quad."""
    y, x = np.indices((m.HEIGHT, m.WIDTH))
    x0, y0 = x & ~1, y & ~1
    if mode == "coarse":
        ddx = uv_model(m, x0 + 1, y0) - uv_model(m, x0, y0)
        ddy = uv_model(m, x0, y0 + 1) - uv_model(m, x0, y0)
    else:
        ddx = uv_model(m, x0 + 1, y) - uv_model(m, x0, y)
        ddy = uv_model(m, x, y0 + 1) - uv_model(m, x, y0)
    rho = m.TEXTURE * np.maximum(np.linalg.norm(ddx, axis=-1), np.linalg.norm(ddy, axis=-1))
    return np.clip(np.log2(rho), 0, m.LEVELS - 1)


def test_mip_shapes_and_levels(mip, mip_mod):
    m = mip_mod
    assert m.LEVELS == int(math.log2(m.TEXTURE)) + 1          # 256 .. 1 texels: 9 levels
    assert m.WIDTH % 2 == 1 and m.HEIGHT % 2 == 1
    for mode in ("coarse", "fine"):
        out = mip[mode]
        assert out["lod"].shape == (m.HEIGHT, m.WIDTH) and out["lod"].dtype == np.float32
        assert out["level"].shape == (m.HEIGHT, m.WIDTH) and out["level"].dtype == np.int32
        assert out["colour"].shape == (m.HEIGHT, m.WIDTH, 4)
        assert out["lod"].min() >= 0 and out["lod"].max() <= m.LEVELS - 1
        np.testing.assert_array_equal(out["level"], np.floor(out["lod"]).astype(np.int32))
    assert mip["levels_used"] == list(range(m.LEVELS))
    assert np.all(mip["coarse"]["level"][-1] == 0)             # nearest row: magnified, level 0
    assert np.all(mip["coarse"]["level"][0] == m.LEVELS - 1)   # farthest row: clamped to 8


def test_lod_grows_with_distance(mip):
    for mode in ("coarse", "fine"):
        level, lod = mip[mode]["level"], mip[mode]["lod"]
        # up the image (decreasing y) is farther along the floor: never a smaller level
        assert np.all(np.diff(level, axis=0) <= 0), mode
        assert np.all(np.diff(lod, axis=0) <= 1e-5), mode
    # and along a row, farther from the centre column is farther away too
    lod = mip["coarse"]["lod"]
    mid = lod.shape[1] // 2
    assert np.all(np.diff(lod[:, mid:], axis=1) >= -1e-5)
    assert np.all(np.diff(lod[:, mid::-1], axis=1) >= -1e-5)


def test_coarse_gives_one_level_per_quad(mip):
    for key in ("lod", "level"):
        a = mip["coarse"][key]
        h, w = a.shape
        # the quads, as whole 2x2 blocks (pad the odd last row and column with their neighbour)
        blocks = np.pad(a, ((0, h % 2), (0, w % 2)), mode="edge")
        blocks = blocks.reshape((h + 1) // 2, 2, (w + 1) // 2, 2)
        assert np.all(blocks == blocks[:, :1, :, :1]), key
    assert mip["coarse_quads_uniform"] is True
    # fine derivatives do split some quads
    level = mip["fine"]["level"]
    ys, xs = np.indices(level.shape)
    assert np.any(level != level[ys & ~1, xs & ~1])


def test_lod_matches_finite_differences(mip, mip_mod):
    m = mip_mod
    for mode in ("coarse", "fine"):
        expected = lod_model(m, mode)
        got = mip[mode]["lod"]
        np.testing.assert_allclose(got, expected, atol=1e-3, err_msg=mode)
        clear = np.abs(expected - np.round(expected)) > 1e-3    # not on a level boundary
        np.testing.assert_array_equal(mip[mode]["level"][clear],
                                      np.floor(expected[clear]).astype(np.int32), err_msg=mode)


def test_lod_of_a_few_pixels_by_hand(mip, mip_mod):
    """Three pixels of the centre column (x = 80, where u = 0, so only dv/dy and du/dx count),
    worked out from the formulas uv = (h (x + 0.5 - W/2), h F) / (y + 0.5 - horizon), h = 0.3,
    F = 100, horizon = -4, T = 256, with coarse differences taken at the quad's top-left pixel."""
    m = mip_mod
    assert (m.WIDTH, m.HORIZON, m.FOCAL, m.HEIGHT_OVER_TILE, m.TEXTURE) == (161, -4, 100, 0.3, 256)
    coarse = mip["coarse"]["lod"]
    # y = 40: quad rows 40, 41 -> y + 0.5 + 4 = 44.5, 45.5.
    # dv/dy = 30 (1/44.5 - 1/45.5) = 0.0148166 uv = 3.7930 texels; du/dx = 0.3 / 44.5 * 256
    # = 1.7258 texels; lod = log2(3.7930) = 1.9234
    assert coarse[40, 80] == pytest.approx(1.9234, abs=2e-3)
    assert mip["coarse"]["level"][40, 80] == 1
    # y = 20: 24.5, 25.5 -> dv/dy = 30 / (24.5 * 25.5) * 256 = 12.2929 texels; lod = 3.6198
    assert coarse[20, 80] == pytest.approx(3.6198, abs=2e-3)
    # y = 96 (the last row; its quad's lower row is made of helpers): 100.5, 101.5 ->
    # dv/dy = 30 / (100.5 * 101.5) * 256 = 0.7529; du/dx = 0.3 / 100.5 * 256 = 0.7642 texels:
    # magnified, log2 < 0, clamped to level 0
    assert coarse[96, 80] == 0
    # fine, y = 41 (the lower row of the quad): dpdx comes from row 41 itself, dpdy from the
    # column's rows 40 and 41 as in coarse, so the LOD is the same 1.9234 here
    assert mip["fine"]["lod"][41, 80] == pytest.approx(1.9234, abs=2e-3)


def test_coarse_and_fine_differ_only_near_level_boundaries(mip, mip_mod):
    differ = mip["coarse"]["level"] != mip["fine"]["level"]
    assert differ.sum() == mip["different_pixels"]
    np.testing.assert_array_equal(differ, mip["differ"])
    # the two LODs differ by the change of the differences over one pixel: a fraction of a
    # percent of rho here (the mapping is smooth), so at most a few hundredths of a level
    gap = np.abs(mip["coarse"]["lod"] - mip["fine"]["lod"])
    assert gap.max() < 0.05 and mip["max_lod_difference"] == pytest.approx(gap.max())
    assert 0 < differ.sum() < 0.01 * differ.size
    near_boundary = np.abs(mip["coarse"]["lod"] - np.round(mip["coarse"]["lod"])) < 0.05
    assert np.all(near_boundary[differ])
    # and the count agrees with the finite-difference model, away from exact ties
    model = np.floor(lod_model(mip_mod, "coarse")) != np.floor(lod_model(mip_mod, "fine"))
    assert abs(int(model.sum()) - int(differ.sum())) <= 2


def test_mip_colours_follow_the_palette(mip, mip_mod):
    m = mip_mod
    out = mip["coarse"]
    palette = np.array(m.PALETTE, np.float64) / 255
    expected = palette[out["level"]]
    rgb = out["colour"][..., :3].astype(np.float64)
    # the checkerboard only darkens (by at most 25 %), and fades out above log2(T / CHECKS)
    ratio = rgb / expected
    assert np.all(ratio <= 1 + 1e-6) and np.all(ratio >= 0.75 - 1e-6)
    far = out["lod"] >= math.log2(m.TEXTURE / m.CHECKS)
    np.testing.assert_allclose(rgb[far], expected[far], atol=1e-6)
    assert np.all(out["colour"][..., 3] == 1)


def test_mip_png(mip, mip_mod):
    image_mod = _pil()
    m = mip_mod
    path = mip["png"]
    assert path is not None and Path(path).is_file()
    z = m.ZOOM
    with image_mod.open(path) as im:
        assert im.format == "PNG" and im.mode == "RGB"
        assert im.size == (3 * m.WIDTH * z + 2 * 3 * z, m.HEIGHT * z + 2 * z + 8 * z)
        pixels = np.asarray(im)
    np.testing.assert_array_equal(pixels, mip["image"])
    # the coarse panel's top-left pixel is the farthest level's colour; the palette strip
    # starts with level 0 and ends with the last level
    assert tuple(pixels[0, 0]) == tuple(m.PALETTE[-1])
    assert tuple(pixels[-1, 0]) == tuple(m.PALETTE[0])
    assert tuple(pixels[-1, -1]) == tuple(m.PALETTE[-1])
    # the difference panel is white exactly where coarse and fine pick different levels
    panel = pixels[: m.HEIGHT * z, -m.WIDTH * z:][::z, ::z]
    np.testing.assert_array_equal(np.all(panel == 255, axis=-1), mip["differ"])
    assert Path(path).stat().st_size < 100_000


def test_mip_save_png_without_pillow(mip_mod, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    image = np.zeros((4, 4, 3), np.uint8)
    assert mip_mod.save_png(image, tmp_path / "x.png") is None
    assert not (tmp_path / "x.png").exists()


# ============================================================================ quad downsample
@pytest.fixture(scope="module")
def quad_mod():
    return load_example("quad_downsample.py")


@pytest.fixture(scope="module")
def quad(quad_mod, tmp_path_factory):
    png = tmp_path_factory.mktemp("quad") / "quad.png"
    return quad_mod.main(png)


def _k256(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """Random texels k/256, k in 0..256: every sum of four and its quarter is exact in f32."""
    return (rng.integers(0, 257, (height, width)) / 256).astype(np.float32)


def test_quad_shapes_odd_size_and_exact_texels(quad, quad_mod):
    m = quad_mod
    assert m.WIDTH % 2 == 1 and m.HEIGHT % 2 == 1, "odd both ways: helpers pad the last quads"
    for key in ("average", "nearest", "edge", "texel"):
        assert quad[key].shape == (m.HEIGHT, m.WIDTH) and quad[key].dtype == np.float32, key
    assert quad["half"].shape == ((m.HEIGHT + 1) // 2, (m.WIDTH + 1) // 2)
    assert quad["half_size"] == (56, 40) and quad["helpers"] == 56 * 40 * 4 - 111 * 79
    texel = quad["texel"].astype(np.float64)
    assert np.array_equal(texel * 256, np.round(texel * 256)) and texel.min() >= 0 \
        and texel.max() <= 1


def test_quad_box_filter_equals_numpy_mean_bit_for_bit(quad):
    model = quad_downsample_model(quad["texel"])
    # the example's own numpy comparison, and the one here, from the texels alone
    assert quad["matches_numpy"] is True
    np.testing.assert_array_equal(quad["half"], model["half"])
    for key in ("average", "nearest", "edge"):
        np.testing.assert_array_equal(quad[key], model[key], err_msg=key)


def test_quad_stripes_are_grey_in_the_box_filter_and_black_when_point_sampled(quad, quad_mod):
    x0, y0, x1, y1 = quad_mod.STRIPES
    assert x1 == quad_mod.WIDTH                         # the stripes reach the helpers' edge
    stripes = quad["texel"][y0:y1, x0:x1]
    assert set(np.unique(stripes).tolist()) == {0.0, 1.0}
    inside = np.s_[y0:y1, x0:x1 - 1]                   # quads left of the last column
    assert np.all(quad["average"][inside] == 0.5)      # (0 + 1 + 0 + 1) / 4, exactly
    assert np.all(quad["nearest"][inside] == 0)        # quad id 0 is on an even, black column
    assert np.all(quad["edge"][inside] == 2)           # |0 - 1| + |1 - 0|
    assert quad["stripes_box"] == 0.5 and quad["stripes_point"] == 0
    # the last column of the half-size image: column WIDTH - 1 (black) clamped, twice
    assert np.all(quad["half"][y0 // 2:y1 // 2, -1] == 0)


def test_quad_clamp_at_the_edge_decides_the_last_column_and_row(quad_mod):
    """The helpers' texels are the image extended linearly (docs/fragment.md); the shader takes
    its in-image neighbour's texel instead. Random texels make the two differ."""
    rng = np.random.default_rng(20)
    for width, height in ((9, 7), (8, 7), (9, 6), (1, 1), (3, 1)):
        texel = _k256(rng, height, width)
        out = quad_mod.render(width, height, texel)
        model = quad_downsample_model(texel)
        for key in ("half", "average", "nearest", "edge"):
            np.testing.assert_array_equal(out[key], model[key], err_msg=f"{key} {width}x{height}")
    texel = _k256(rng, 7, 9)
    extended = np.pad(texel.astype(np.float64), ((0, 1), (0, 1)), mode="reflect",
                      reflect_type="odd")          # what asyncshader gives the helpers
    unclamped = extended.reshape(4, 2, 5, 2).mean(axis=(1, 3))
    clamped = quad_mod.render(9, 7, texel)["half"]
    assert not np.array_equal(clamped[:, -1], unclamped[:, -1])
    np.testing.assert_array_equal(clamped[:-1, :-1], unclamped[:-1, :-1])


def test_quad_every_member_holds_the_same_values(quad):
    """The butterfly gives all four members of a quad the same bits (so does the broadcast)."""
    for key in ("average", "nearest", "edge"):
        a = quad[key]
        h, w = a.shape
        blocks = np.pad(a, ((0, h % 2), (0, w % 2)), mode="edge")
        blocks = blocks.reshape((h + 1) // 2, 2, (w + 1) // 2, 2)
        assert np.all(blocks == blocks[:, :1, :, :1]), key


def test_quad_one_writer_per_quad_is_race_free_and_four_would_race(quad_mod):
    """The example stores from quad id 0 only: no race. Storing from all four members (the
    same value) is four unordered writes of one element: the detector reports it."""
    import asyncshader as ash

    given = quad_mod.setup(9, 7, _k256(np.random.default_rng(3), 7, 9))
    result = ash.run_fragments(quad_mod.downsample, sanitize="report", **given)
    assert result.findings == []

    @ash.fragment
    async def every_member_writes(texel: ash.Input, half: ash.Storage, *,
                                  position: ash.vec4f):
        pair = texel + await ash.quad_swap_x(texel)
        total = pair + await ash.quad_swap_y(pair)
        x, y = ash.u32(position.x), ash.u32(position.y)
        if x < 8 and y < 6:
            half[(y // 2) * 4 + x // 2] = total * ash.f32(0.25)

    result = ash.run_fragments(every_member_writes, 8, 6, texel=given["texel"][:6, :8],
                               half=np.zeros(12, np.float32), sanitize="report")
    [race] = result.findings
    assert race.race == "write-write" and race.memory == "half" and race.same_value


def test_quad_swap_inside_the_clamp_is_a_uniformity_error(quad_mod):
    """Were the swap moved into the helper's branch, only the helpers would reach it."""
    import asyncshader as ash

    @ash.fragment
    async def clamp_in_branch(texel: ash.Input, *, position: ash.vec4f):
        t = texel
        if ash.u32(position.x) >= 3:
            t = await ash.quad_swap_x(t)
        return t

    with pytest.raises(ash.DerivativeUniformityError):
        ash.run_fragments(clamp_in_branch, 3, 2, texel=np.zeros((2, 3), np.float32))


def test_quad_png(quad, quad_mod):
    image_mod = _pil()
    m, path = quad_mod, quad["png"]
    assert path is not None and Path(path).is_file()
    z = m.ZOOM
    with image_mod.open(path) as im:
        assert im.format == "PNG" and im.mode == "L"
        assert im.size == (4 * m.WIDTH * z + 3 * 3 * z, m.HEIGHT * z)
        pixels = np.asarray(im)
    np.testing.assert_array_equal(pixels, quad["image"])
    panel = m.WIDTH * z + 3 * z                          # a panel and the gap after it
    shown = [pixels[::z, k * panel:k * panel + m.WIDTH * z:z].astype(np.float64) / 255
             for k in range(4)]
    for got, want in zip(shown, (quad["texel"], quad["average"], quad["nearest"],
                                 np.minimum(quad["edge"], 1))):
        assert np.abs(got - want).max() <= 0.5 / 255 + 1e-9
    assert Path(path).stat().st_size < 100_000


def test_quad_runs_without_pillow(quad_mod, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    out = quad_mod.main(tmp_path / "quad.png")
    assert out["png"] is None and not (tmp_path / "quad.png").exists()
    assert "install Pillow" in capsys.readouterr().out
