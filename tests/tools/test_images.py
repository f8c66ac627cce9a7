"""images.save_png: what a shader computed, written as a PNG (Pillow is the `images` extra)."""

import sys

import numpy as np
import pytest

from asyncshader.tools.images import save_png


def test_rgb_and_grey_images_round_trip(tmp_path):
    image = pytest.importorskip("PIL.Image")
    rgb = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3) * 10
    grey = np.array([[0, 128, 255]], np.uint8)
    assert save_png(rgb, tmp_path / "sub" / "rgb.png") == tmp_path / "sub" / "rgb.png"
    save_png(grey, tmp_path / "grey.png")
    with image.open(tmp_path / "sub" / "rgb.png") as im:
        assert im.mode == "RGB" and im.size == (3, 2)
        np.testing.assert_array_equal(np.asarray(im), rgb)
    with image.open(tmp_path / "grey.png") as im:
        assert im.mode == "L" and np.asarray(im).tolist() == [[0, 128, 255]]


def test_wrong_pixels_are_refused_with_the_fix(tmp_path):
    pytest.importorskip("PIL.Image")
    with pytest.raises(TypeError, match=r"uint8 pixels.*astype\(np.uint8\)"):
        save_png(np.zeros((2, 2, 3), np.float32), tmp_path / "x.png")
    with pytest.raises(ValueError, match=r"\(height, width, 3\)"):
        save_png(np.zeros((2, 2, 4), np.uint8), tmp_path / "x.png")


def test_without_pillow_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert save_png(np.zeros((1, 1, 3), np.uint8), tmp_path / "x.png") is None
    assert not (tmp_path / "x.png").exists()
