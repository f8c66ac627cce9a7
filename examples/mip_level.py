"""The mip level a GPU picks: texture LOD from ``dpdx``/``dpdy``, coarse versus fine.

What this example teaches (WGSL concepts):

* ``textureSample`` picks a mip level from the derivatives of the texture coordinate: how many
  texels one pixel step covers. With ``T`` the texture size in texels::

      rho = max(length(dpdx(uv * T)), length(dpdy(uv * T)))   // texels per pixel
      lod = clamp(log2(rho), 0, levels - 1)

  (the isotropic formula of the Vulkan and D3D specifications). Level 0 is the full-size
  texture; each level halves it. This example computes that LOD itself and colours each pixel by
  its integer level, ``floor(lod)`` (the finer of the two levels trilinear filtering blends).
* The scene is a floor plane receding to a horizon just above the image: far pixels (at the top)
  cover many texels, so their ``rho`` is large and they pick small, blurry levels; near pixels
  (at the bottom) magnify the texture and are clamped to level 0; the far rows are clamped to the
  last level. The bands curve upward at the sides, where one pixel also covers more floor.
* ``dpdx``/``dpdy`` work only because pixels run in 2x2 quads. With ``derivatives="coarse"``
  (asyncshader's default, and what D3D's ``ddx`` is) one pair of differences, taken at quad id
  0, serves the whole quad, so every 2x2 quad gets a single level. With ``"fine"`` each row (for
  ``dpdx``) and each column (for ``dpdy``) of the quad has its own difference, and a few pixels
  near a level boundary pick another level. Real GPUs may give either for plain ``dpdx``: a
  shader must look right with both.
* The texture coordinate is given as a *callable* input ``(x, y) -> vec2f``: it is evaluated at
  every invocation's own pixel, helper invocations included (the image is 161 x 97, odd, so the
  last column and row of quads are padded with helpers).
* The shader is one source for the CPU and the GPU: ``length``, ``clamp`` and ``fract`` are
  asyncshader's WGSL built-ins (``ash.length`` ...), and the colour is ``PALETTE[level]``, a
  module tuple of ``vec3f`` indexed at run time, which ``asyncshader wgsl
  examples/mip_level.py::mip_level`` writes as a module-scope ``const PALETTE = array<vec3f,
  9>(...)``. tests/emit/test_examples_on_gpu.py runs it on a real WebGPU implementation (Mesa's
  lavapipe) and finds the same levels, pixel for pixel.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/mip_level.py [out.png]

(the picture goes to ``out.png``, by default ``mip_level.png`` in the current directory)

With Pillow installed (the ``images`` extra) it writes a picture: coarse levels on the left, fine
levels in the middle, and on the right the pixels where the two differ, in white. A strip at the
bottom shows the palette, levels 0 to 8 from left to right.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

import asyncshader as ash
from asyncshader import f32, i32, vec2f, vec3f, vec4f
from asyncshader.tools.images import save_png  # Pillow is optional (the "images" extra)

#: The image size in pixels (odd in both directions: helper invocations pad the last quads).
WIDTH, HEIGHT = 161, 97
#: The texture: TEXTURE x TEXTURE texels, with LEVELS mip levels (256, 128, ..., 1).
TEXTURE = 256
LEVELS = 9
#: The camera: the horizon is the (virtual) row HORIZON, above the image; FOCAL is the focal
#: length in pixels; HEIGHT_OVER_TILE is the camera height in texture repeats (uv units).
HORIZON = -4.0
FOCAL = 100.0
HEIGHT_OVER_TILE = 0.3
#: One colour per mip level, 0 (full size) to 8 (1 x 1 texel), as 0..255 RGB (the shader
#: divides by 255). The shader indexes it with the level: in WGSL a module-scope
#: ``const PALETTE = array<vec3f, 9>(...)``.
PALETTE = (
    vec3f(59, 76, 192), vec3f(79, 143, 214), vec3f(63, 184, 176), vec3f(92, 200, 92),
    vec3f(181, 211, 52), vec3f(242, 193, 46), vec3f(242, 142, 43), vec3f(225, 87, 89),
    vec3f(156, 79, 150),
)
#: The texture is a checkerboard of CHECKS x CHECKS squares (TEXTURE / CHECKS texels each).
CHECKS = 8
#: Each output pixel becomes a ZOOM x ZOOM block in the picture.
ZOOM = 2


def floor_uv(x: int, y: int) -> vec2f:
    """The floor's texture coordinate at the centre of pixel (x, y) (perspective projection).

    A camera HEIGHT_OVER_TILE above the floor sees, at pixel row y, the floor at depth
    ``h * FOCAL / (y + 0.5 - HORIZON)``; x moves sideways by ``depth / FOCAL`` per pixel.
    Computed in double precision and rounded to f32, like a rasterizer's interpolation."""
    below_horizon = y + 0.5 - HORIZON
    u = (x + 0.5 - WIDTH / 2) * HEIGHT_OVER_TILE / below_horizon
    v = HEIGHT_OVER_TILE * FOCAL / below_horizon
    return vec2f(u, v)


# --- the shader --------------------------------------------------------------------------------
@dataclasses.dataclass
class MipOut:
    """struct MipOut { @location(0) lod: f32, @location(1) level: i32,
    @location(2) colour: vec4f }"""

    lod: np.float32
    level: np.int32
    colour: vec4f


@ash.fragment
async def mip_level(uv: ash.Input[vec2f]) -> MipOut:
    """The LOD textureSample would use for a TEXTURE x TEXTURE texture at ``uv``."""
    texel = uv * f32(TEXTURE)                     # texture coordinate in texels
    ddx = await ash.dpdx(texel)                   # texels per pixel step right ...
    ddy = await ash.dpdy(texel)                   # ... and down (coarse or fine: the dispatch)
    rho = np.maximum(ash.length(ddx), ash.length(ddy))
    lod = ash.clamp(np.log2(rho), 0.0, LEVELS - 1)
    level = i32(np.floor(lod))
    # the level's colour, darkened on the texture's dark squares; the squares fade out from the
    # level where one square (TEXTURE / CHECKS texels) shrinks to one texel per pixel, as the
    # averaging of mip levels would make them
    cell = uv * f32(CHECKS / 2)
    checks = f32(1) if (ash.fract(cell.x) < 0.5) != (ash.fract(cell.y) < 0.5) else f32(0)
    contrast = f32(0.25) * ash.clamp(f32(np.log2(TEXTURE / CHECKS)) - lod, 0.0, 1.0)
    shade = f32(1) - contrast * checks
    rgb = PALETTE[level] / 255.0 * shade          # (a runtime index into the const array)
    return MipOut(lod=lod, level=level, colour=vec4f(rgb, 1))


def setup() -> dict:
    """One draw, for the command line (``asyncshader run|wgsl|crosscheck
    examples/mip_level.py::mip_level``): a strip of the floor 11 pixels wide, from the horizon
    to the nearest row (every level; helpers pad the odd width and height). Cross-check with
    ``--atol 3.8e-6``: the LOD is a log2 near 0, whose error WGSL bounds in absolute terms
    (tests/emit/test_examples_on_gpu.py derives it)."""
    return {"width": 11, "height": HEIGHT, "uv": floor_uv}


def render(derivatives: str = "coarse") -> dict:
    """Runs the shader over the floor; returns the ``lod``, ``level`` and ``colour`` arrays."""
    result = ash.run_fragments(mip_level, WIDTH, HEIGHT, uv=floor_uv, derivatives=derivatives)
    return result.output


def picture(coarse: dict, fine: dict, zoom: int = ZOOM) -> np.ndarray:
    """The coarse and fine renders and their difference side by side, with a palette strip
    below, as uint8 RGB."""

    def up(rgb: np.ndarray) -> np.ndarray:
        return np.kron(rgb, np.ones((zoom, zoom, 1)))

    coarse_rgb = coarse["colour"][..., :3] * 255
    fine_rgb = fine["colour"][..., :3] * 255
    differ = coarse["level"] != fine["level"]
    diff_rgb = np.where(differ[..., None], 255.0, coarse_rgb * 0.35)
    h = HEIGHT * zoom
    gap = np.full((h, 3 * zoom, 3), 255.0)
    top = np.concatenate([up(coarse_rgb), gap, up(fine_rgb), gap, up(diff_rgb)], axis=1)
    strip = np.zeros((8 * zoom, top.shape[1], 3))
    bounds = np.linspace(0, top.shape[1], LEVELS + 1).astype(int)
    for level, colour in enumerate(PALETTE):
        strip[:, bounds[level]:bounds[level + 1]] = colour
    white = np.full((2 * zoom, top.shape[1], 3), 255.0)
    return np.round(np.concatenate([top, white, strip])).astype(np.uint8)



def main(png_path: str | Path | None = None) -> dict:
    """Renders the floor's mip levels with coarse and with fine derivatives, compares them,
    writes the picture; returns the arrays and the statistics."""
    coarse, fine = render("coarse"), render("fine")
    differ = coarse["level"] != fine["level"]
    # coarse: one level per 2x2 quad (compare each pixel with its quad's upper-left pixel)
    lv = coarse["level"]
    ys, xs = np.indices(lv.shape)
    quad_uniform = bool(np.all(lv == lv[ys & ~1, xs & ~1]))
    stats = {
        "size": (WIDTH, HEIGHT),
        "levels_used": sorted({int(v) for v in np.unique(lv)}),
        "pixels_per_level": np.bincount(lv.ravel(), minlength=LEVELS).tolist(),
        "different_pixels": int(differ.sum()),
        "coarse_quads_uniform": quad_uniform,
        "max_lod_difference": float(np.max(np.abs(coarse["lod"] - fine["lod"]))),
    }
    print(f"Mip levels of a {TEXTURE}x{TEXTURE} texture ({LEVELS} levels) on a receding floor, "
          f"{WIDTH}x{HEIGHT} pixels")
    print(f"  levels used (near to far): {stats['levels_used']}")
    print(f"  pixels per level:          {stats['pixels_per_level']}")
    print(f"  coarse: one level per 2x2 quad: {'yes' if quad_uniform else 'NO'}")
    print(f"  fine vs coarse: {stats['different_pixels']} of {WIDTH * HEIGHT} pixels pick "
          f"another level (largest LOD difference {stats['max_lod_difference']:.3f})")
    image = picture(coarse, fine)
    if png_path is None:
        png_path = Path("mip_level.png")  # where the user runs it, as a script would
    written = save_png(image, png_path)
    if written is None:
        print("  (install Pillow, the 'images' extra, to get the picture)")
    else:
        print(f"  picture (coarse | fine | differences): {written}")
    return {"coarse": coarse, "fine": fine, "differ": differ, "image": image, "png": written,
            **stats}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
