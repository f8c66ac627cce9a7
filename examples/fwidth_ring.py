"""An anti-aliased ring: ``fwidth()`` and the screen-space anti-aliasing trick.

What this example teaches (WGSL concepts):

* A fragment shader runs once per pixel, and the GPU runs pixels in 2x2 *quads*. That is what
  makes ``dpdx``, ``dpdy`` and ``fwidth`` possible: a derivative is the difference between the
  values of neighbouring pixels of the same quad.
* ``fwidth(d) = abs(dpdx(d)) + abs(dpdy(d))``: how much ``d`` changes from one pixel to the next.
  Here ``d`` is the signed distance to the ring's edges, in *uv units* (the ring is described in
  texture coordinates, not in pixels), so ``fwidth(d)`` is the size of one pixel in the units of
  ``d``, whatever the resolution or the uv mapping.
* The trick: ``alpha = 1 - smoothstep(-w, w, d)`` with ``w = fwidth(d)``. A hard edge,
  ``1 - step(0, d)``, jumps from 1 to 0 between two pixels (jaggies); the smoothstep ramps over
  ``2 * w``: a band 2 to 2.8 pixels across the edge (``w`` is 1 pixel for a horizontal or
  vertical edge, sqrt(2) for a diagonal one), the same on screen at every resolution.
* ``derivatives="coarse"`` (the default) gives every pixel of a quad the same ``fwidth``; the
  result barely changes with ``"fine"``: try ``render(derivatives="fine")``.
* An odd image size (127 x 127): the GPU pads the grid to whole quads with *helper invocations*.
  They run the shader so that the last column and row have neighbours to take differences with,
  but produce no pixels. The ``uv`` input is an array; helpers past the edge see it extended
  linearly, as an interpolated attribute would be.
* A shader can return a struct (here a dataclass, WGSL's ``struct`` with ``@location`` fields):
  ``run_fragments`` gives one array per field.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/fwidth_ring.py [out.png]

(the picture goes to ``out.png``, by default ``fwidth_ring.png`` in the current directory)

With Pillow installed (the ``images`` extra) it writes a picture: the anti-aliased ring on the
left, the hard-edged one on the right, each pixel drawn as a 3x3 block so the edges show.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

import asyncshader as ash
from asyncshader import f32, vec2f, vec4f
from asyncshader.tools.images import save_png  # Pillow is optional (the "images" extra)

#: The image size in pixels; odd on purpose, so the last column and row are padded with helpers.
WIDTH = HEIGHT = 127
#: The ring in uv units (uv runs over [0, 1] across the image): centre, radius of the centre line
#: and half of the ring's thickness.
CENTER = (0.5, 0.5)
RADIUS = 0.32
HALF_THICKNESS = 0.05
#: Each output pixel becomes a ZOOM x ZOOM block in the picture.
ZOOM = 3


# --- the shader --------------------------------------------------------------------------------
@dataclasses.dataclass
class RingOut:
    """struct RingOut { @location(0) aa: f32, @location(1) hard: f32, @location(2) w: f32 }"""

    aa: np.float32     # anti-aliased coverage
    hard: np.float32   # hard-edged coverage
    w: np.float32      # fwidth(d): one pixel, in uv units


@ash.fragment
async def ring(uv: ash.Input, *, position: vec4f) -> RingOut:
    """Coverage of the ring |length(uv - CENTER) - RADIUS| <= HALF_THICKNESS."""
    # signed distance to the ring's two edges: negative inside the ring, positive outside
    d = ash.abs(ash.length(uv - vec2f(*CENTER)) - f32(RADIUS)) - f32(HALF_THICKNESS)
    # every invocation of the quad (helpers too) reaches this line: uniform control flow
    w = await ash.fwidth(d)
    aa = f32(1) - ash.smoothstep(-w, w, d)
    hard = f32(1) - ash.step(f32(0), d)
    return RingOut(aa=aa, hard=hard, w=w)


def uv_grid(width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """The interpolated texture coordinate of every pixel centre: (height, width, 2), in [0, 1]."""
    x = (np.arange(width, dtype=np.float32) + 0.5) / width
    y = (np.arange(height, dtype=np.float32) + 0.5) / height
    return np.stack(np.meshgrid(x, y), axis=-1).astype(np.float32)


def setup() -> dict:
    """One draw, for the command line (``asyncshader run|wgsl|crosscheck
    examples/fwidth_ring.py::ring``): a small odd-sized image, helpers included."""
    return {"width": 21, "height": 19, "uv": uv_grid(21, 19)}


def render(width: int = WIDTH, height: int = HEIGHT, derivatives: str = "coarse") -> dict:
    """Runs the shader; returns the ``aa``, ``hard`` and ``w`` arrays, (height, width)."""
    result = ash.run_fragments(ring, width, height, uv=uv_grid(width, height),
                               derivatives=derivatives)
    return result.output


def picture(aa: np.ndarray, hard: np.ndarray, zoom: int = ZOOM) -> np.ndarray:
    """Anti-aliased and hard-edged rings side by side, as uint8 RGB: a warm ring over a dark
    background, each pixel a zoom x zoom block."""
    background = np.array([24, 28, 48], np.float32)
    ring_colour = np.array([255, 214, 120], np.float32)

    def shade(alpha: np.ndarray) -> np.ndarray:
        a = alpha[..., None]
        return np.kron(ring_colour * a + background * (1 - a), np.ones((zoom, zoom, 1)))

    gap = np.full((aa.shape[0] * zoom, 4 * zoom, 3), 255, np.float32)
    image = np.concatenate([shade(aa), gap, shade(hard)], axis=1)
    return np.round(image).astype(np.uint8)



def main(png_path: str | Path | None = None) -> dict:
    """Renders the ring, prints what anti-aliasing did, writes the picture; returns the arrays
    and the statistics."""
    out = render()
    aa, hard, w = out["aa"], out["hard"], out["w"]
    partial = (aa > 0) & (aa < 1)
    # the distance of every pixel centre to the nearest edge, in pixels (numpy, for the stats)
    uv = uv_grid()
    r_px = np.hypot(uv[..., 0] - CENTER[0], uv[..., 1] - CENTER[1]) * WIDTH
    edge_px = np.abs(np.abs(r_px - RADIUS * WIDTH) - HALF_THICKNESS * WIDTH)
    band = float(edge_px[partial].max()) if partial.any() else 0.0
    stats = {
        "size": (WIDTH, HEIGHT),
        "partial_pixels": int(partial.sum()),
        "hard_partial_pixels": int(((hard > 0) & (hard < 1)).sum()),
        "max_edge_distance_px": band,            # how far from an edge a partial pixel can be
        # fwidth(d) in pixels where the edge is drawn: |cos t| + |sin t| for an edge at angle t
        "fwidth_px": (float(w[partial].min()) * WIDTH, float(w[partial].max()) * WIDTH),
        "coverage_aa": float(aa.sum()),
        "coverage_hard": float(hard.sum()),
        "ring_area_px": float(np.pi * ((RADIUS + HALF_THICKNESS) ** 2
                                       - (RADIUS - HALF_THICKNESS) ** 2)) * WIDTH * HEIGHT,
    }
    print(f"Anti-aliased ring, {WIDTH}x{HEIGHT} pixels (odd: the last column and row of quads "
          "are padded with helper invocations)")
    lo, hi = stats["fwidth_px"]
    print(f"  fwidth(d) at the edges:    {lo:.3f} to {hi:.3f} pixels ({lo / WIDTH:.5f} to "
          f"{hi / WIDTH:.5f} uv units)")
    print(f"  hard edge, partial pixels: {stats['hard_partial_pixels']} (step() is 0 or 1)")
    print(f"  smoothstep, partial:       {stats['partial_pixels']} pixels, all within "
          f"{band:.2f} px of an edge")
    print(f"  coverage (sum of alpha):   AA {stats['coverage_aa']:.1f}, hard "
          f"{stats['coverage_hard']:.0f}, exact ring area {stats['ring_area_px']:.1f} px")
    image = picture(aa, hard)
    if png_path is None:
        png_path = Path("fwidth_ring.png")  # where the user runs it, as a script would
    written = save_png(image, png_path)
    if written is None:
        print("  (install Pillow, the 'images' extra, to get the picture)")
    else:
        print(f"  picture (AA left, hard right): {written}")
    return {"aa": aa, "hard": hard, "w": w, "image": image, "png": written, **stats}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
