"""examples/textured_floor.py: the level textureSample picks at each pixel is the one derived
here from the floor's geometry with numpy (coarse derivatives, taken at each quad's upper-left
pixel, Vulkan's isotropic rho, nearest mip level), and the PNG it writes is read back."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import load_example


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    mod = load_example("textured_floor.py")
    return mod, mod.main(tmp_path_factory.mktemp("floor") / "floor.png")


def expected_lod(mod):
    """Each pixel's level of detail from the geometry, in double precision."""
    y, x = np.mgrid[0:mod.HEIGHT, 0:mod.WIDTH]
    x0, y0 = (x & ~1).astype(float), (y & ~1).astype(float)

    def uv(px, py):
        below = py + 0.5 - mod.HORIZON
        return ((px + 0.5 - mod.WIDTH / 2) * mod.HEIGHT_OVER_TILE / below,
                mod.HEIGHT_OVER_TILE * mod.FOCAL / below)

    u00, v00 = uv(x0, y0)
    u10, v10 = uv(x0 + 1, y0)
    u01, v01 = uv(x0, y0 + 1)
    t = mod.TEXTURE
    rho = np.maximum(np.hypot(u10 - u00, v10 - v00) * t, np.hypot(u01 - u00, v01 - v00) * t)
    return np.log2(rho)


def test_each_pixel_samples_the_nearest_level_to_its_quads_lod(floor):
    mod, result = floor
    d = np.clip(expected_lod(mod), 0, mod.LEVELS - 1)
    want = np.ceil(d + 0.5) - 1                     # mipmap_filter="nearest": halves round down
    got = result["levels"]
    near_boundary = np.abs(d - np.round(d - 0.5) - 0.5) < 1e-4   # f32 against double
    assert ((got == want) | near_boundary).all()
    assert (got == want).mean() > 0.99
    assert got[-1].max() == 0 and got[0].max() == 8  # near rows level 0, the farthest level 8


def test_the_picture_is_written(floor):
    Image = pytest.importorskip("PIL.Image")
    mod, result = floor
    with Image.open(result["png"]) as im:
        assert im.size == (mod.WIDTH * mod.ZOOM, mod.HEIGHT * mod.ZOOM)
