"""A textured floor receding to the horizon: ``textureSample`` chooses each pixel's mip level
from the quad's derivatives of the texture coordinate.

What this example teaches (WGSL concepts):

* ``await ash.texture_sample(tex, smp, uv)`` (WGSL ``textureSample``) takes no level: the GPU
  computes it from how fast ``uv`` changes between the pixels of a 2x2 quad, scaled by the
  texture's size (texels per pixel step), ``lod = log2(rho)``. It is a quad operation, like
  ``dpdx``: the four pixels of a quad must all reach it.
* The texture here is a mip chain whose level k is a flat tint (``PALETTE[k]`` of
  examples/mip_level.py, which computes the same levels by hand with ``dpdx``/``dpdy``), so the
  picture shows the level each pixel sampled: near rows magnify the texture (level 0, blue),
  far rows shrink it (up to level 8, purple). The sampler's ``mipmap_filter="nearest"`` takes
  the nearest level, so the bands change where ``lod`` crosses k + 0.5.
* The image is 161 x 97, odd: the last column and row of quads are padded with helper
  invocations, which evaluate ``uv`` at their own pixel and give their neighbours the
  differences; without them the edge pixels would have no level.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/textured_floor.py [out.png]

With Pillow installed (the ``images`` extra) it writes the picture (``textured_floor.png`` by
default).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import asyncshader as ash
from asyncshader import f32, vec2f, vec4f
from asyncshader.tools.images import save_png  # Pillow is optional (the "images" extra)

#: the image, the texture (TEXTURE x TEXTURE texels, LEVELS levels) and the camera, as in
#: examples/mip_level.py
WIDTH, HEIGHT = 161, 97
TEXTURE, LEVELS = 256, 9
HORIZON, FOCAL, HEIGHT_OVER_TILE = -4.0, 100.0, 0.3
#: level k's tint (0..255 RGB)
PALETTE = ((59, 76, 192), (79, 143, 214), (63, 184, 176), (92, 200, 92), (181, 211, 52),
           (242, 193, 46), (242, 142, 43), (225, 87, 89), (156, 79, 150))
ZOOM = 2


def floor_uv(x: int, y: int) -> vec2f:
    """The floor's texture coordinate at the centre of pixel (x, y) (perspective)."""
    below_horizon = y + 0.5 - HORIZON
    return vec2f((x + 0.5 - WIDTH / 2) * HEIGHT_OVER_TILE / below_horizon,
                 HEIGHT_OVER_TILE * FOCAL / below_horizon)


def tinted_chain() -> ash.Texture:
    """The TEXTURE x TEXTURE rgba8unorm mip chain whose level k is PALETTE[k]."""
    return ash.Texture([np.broadcast_to(np.array(PALETTE[k] + (255,), np.uint8),
                                        (TEXTURE >> k, TEXTURE >> k, 4)).copy()
                        for k in range(LEVELS)])


@ash.fragment
async def textured_floor(uv: ash.Input[vec2f], tex: ash.Texture2D[f32],
                         smp: ash.Sampler) -> vec4f:
    """The floor's colour: the texture sampled at the level the quad's derivatives pick."""
    return await ash.texture_sample(tex, smp, uv)


def render(derivatives: str = "coarse") -> np.ndarray:
    """The (HEIGHT, WIDTH, 4) colours of the floor."""
    smp = ash.Sampler(address_mode_u="repeat", address_mode_v="repeat")
    return ash.run_fragments(textured_floor, WIDTH, HEIGHT, uv=floor_uv, tex=tinted_chain(),
                             smp=smp, derivatives=derivatives).output


def levels_of(colours: np.ndarray) -> np.ndarray:
    """The mip level each pixel's colour is the tint of."""
    rgb = np.round(colours[..., :3] * 255)
    palette = np.array(PALETTE, float)
    return np.argmin(((rgb[..., None, :] - palette) ** 2).sum(-1), axis=-1)


def main(png_path: str | Path | None = None) -> dict:
    """Renders the floor, prints the levels used, writes the picture."""
    colours = render()
    levels = levels_of(colours)
    counts = np.bincount(levels.ravel(), minlength=LEVELS).tolist()
    print(f"textureSample on a receding floor, {WIDTH}x{HEIGHT} pixels, a {TEXTURE}x{TEXTURE} "
          f"texture with {LEVELS} tinted levels")
    print(f"  pixels per level (0 = full size): {counts}")
    image = np.kron(np.round(colours[..., :3] * 255), np.ones((ZOOM, ZOOM, 1))).astype(np.uint8)
    written = save_png(image, png_path or Path("textured_floor.png"))
    print("  (install Pillow, the 'images' extra, to get the picture)" if written is None
          else f"  picture: {written}")
    return {"colours": colours, "levels": levels, "counts": counts, "png": written}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
