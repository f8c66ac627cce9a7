"""Half-size image with quad operations: the first step of a mip chain, without texture reads.

What this example teaches (WGSL concepts):

* A fragment shader runs in 2x2 *quads*, and WGSL's quad operations hand values between the
  four members of a quad (quad ids 0 upper left, 1 upper right, 2 lower left, 3 lower right):
  ``quadSwapX`` (0 <-> 1, 2 <-> 3), ``quadSwapY`` (0 <-> 2, 1 <-> 3), ``quadSwapDiagonal``
  (0 <-> 3, 1 <-> 2) and ``quadBroadcast(e, id)``. Each is a *rendezvous*: all four members,
  helpers included, must reach the same call (uniform control flow), or the result is undefined
  on a GPU; asyncshader stops with ``DerivativeUniformityError``.
* The 2x2 box filter that builds the next mip level, with two exchanges instead of four texture
  reads: ``pair = t + quadSwapX(t)`` (my row of the quad), then
  ``total = pair + quadSwapY(pair)`` (plus the other row). It is a butterfly, the tree
  reduction of examples/reduce.py inside one quad: log2(4) = 2 steps, and every member ends up
  holding the sum. Each member adds the same two pair sums, (P0 + P1) + (P2 + P3) or the other
  way round, so all four get the same bits (f32 addition is commutative, not associative).
* ``quadBroadcast(t, 0)``: everyone takes quad id 0's texel. That is point sampling, the cheap
  way to halve an image, shown for comparison: it keeps one texel in four and aliases (stripes
  one pixel wide come out black instead of grey; the zone plate grows false rings).
* ``quadSwapDiagonal`` gives the Roberts cross edge detector: ``|P0 - P3| + |P1 - P2|``, the
  two diagonal differences of the quad. A quad only sees itself: an edge *between* two quads is
  invisible to it, so the disc's outline comes out dashed.
* One writer per quad. All four members hold the average; if all four stored it, that would be
  four unordered writes of one element, a data race (asyncshader's race detector reports it,
  even though the values are equal). Quad id 0 writes: it is at an even x and y, so it is a
  pixel of the image whatever the size, never a helper.
* Helper invocations (the image is 111 x 79, odd both ways). The last column and row of quads
  stick out of the image; their outside members are helpers. They run the shader and feed the
  swaps, but their texels are made up: asyncshader extends a float input linearly past the edge,
  as an interpolated attribute would be (on a GPU a texture read there returns what the
  sampler's address mode says). Where the stripes end at the right edge (0 at x = 110, 1 at
  x = 109) a helper sees 2 * 0 - 1 = -1, and averaged in it would give -0.5 instead of 0. So the
  shader *clamps to the edge* first: a helper takes the texel of its neighbour inside the image,
  itself with a quad swap, called before the ``if`` that uses it (inside, only the helpers would
  reach it). The half-size image is ceil(W/2) x ceil(H/2); its last column averages the
  image's last column with itself. (Vulkan sizes mip levels floor(W/2); a careful downsampler
  of an odd size uses three taps there. This example keeps to the quad.)
* The texels are multiples of 1/256, so every sum of four and every average is exact in f32: the
  test compares the half-size image with numpy's ``reshape(...).mean(...)`` bit for bit, and on
  lavapipe too (tests/emit/test_examples_on_gpu.py).

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/quad_downsample.py [out.png]

(the picture goes to ``out.png``, by default ``quad_downsample.png`` in the current directory)

and on a real GPU next to the CPU (wgpu, the ``gpu`` extra; lavapipe will do), bit for bit::

    asyncshader crosscheck examples/quad_downsample.py::downsample --ulp 0

With Pillow installed (the ``images`` extra) it writes a picture of four panels: the image, the
half-size image the shader stored (box filter), the point-sampled one (``quadBroadcast``) and
the Roberts cross edges (``quadSwapDiagonal``), each drawn at the size of the full image.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec2u, vec4f
from asyncshader.tools.images import save_png  # Pillow is optional (the "images" extra)

#: The image size in pixels; odd both ways, so the last column and row of quads hold helpers.
WIDTH, HEIGHT = 111, 79
#: Each image pixel becomes a ZOOM x ZOOM block in the picture.
ZOOM = 2
#: The test card: a zone plate (rings ever finer outward) centred at ZONE with radius ZONE_R,
#: a patch of vertical stripes one pixel wide (STRIPES: x0, y0, x1, y1) that reaches the right
#: edge (where the helpers stand), and a bright disc.
ZONE, ZONE_R = (40.0, 39.5), 36.0
STRIPES = (84, 6, WIDTH, 30)
DISC, DISC_R = (94.0, 56.0), 13.0


# --- the shader --------------------------------------------------------------------------------
@dataclasses.dataclass
class Downsampled:
    """struct Downsampled { @location(0) average: f32, @location(1) nearest: f32,
    @location(2) edge: f32 }: per pixel, values of its quad (all four members get the same)."""

    average: np.float32   # the box filter: the mean of the quad's four texels
    nearest: np.float32   # point sampling: quad id 0's texel
    edge: np.float32      # Roberts cross: |P0 - P3| + |P1 - P2|


@ash.fragment
async def downsample(texel: ash.Input, half: ash.Storage, size: ash.Uniform[vec2u], *,
                     position: vec4f) -> Downsampled:
    """Each pixel reads its own texel; the quad's members exchange theirs; quad id 0 stores the
    quad's average at (x / 2, y / 2) of the half-size image ``half``, row-major,
    ceil(size.x / 2) texels a row."""
    x = u32(position.x)                 # my pixel; a helper has x == size.x or y == size.y
    y = u32(position.y)
    # 1. clamp to the edge: a helper's texel is made up (the input extended past the image), so
    #    it takes its neighbour's instead (a helper in a corner, in two steps). The swaps are
    #    outside the ifs: every member, helpers too, must reach them.
    t = texel
    neighbour_x = await ash.quad_swap_x(t)
    if x >= size.x:                     # a helper column (odd width)
        t = neighbour_x
    neighbour_y = await ash.quad_swap_y(t)
    if y >= size.y:                     # a helper row (odd height)
        t = neighbour_y
    # 2. the box filter: a butterfly of two exchanges; all four members get the same sum
    pair = t + await ash.quad_swap_x(t)           # the two texels of my row of the quad
    total = pair + await ash.quad_swap_y(pair)    # plus the two of the other row
    average = total * f32(0.25)
    # 3. point sampling, for comparison: quad id 0's texel, to every member
    nearest = await ash.quad_broadcast(t, 0)
    # 4. Roberts cross: ids 0 and 3 get |P0 - P3|, ids 1 and 2 get |P1 - P2|; add the other one
    diagonal = abs(t - await ash.quad_swap_diagonal(t))
    edge = diagonal + await ash.quad_swap_x(diagonal)
    # 5. one writer per quad: quad id 0 (even x and y), which is never a helper
    if x % 2 == 0 and y % 2 == 0:
        half[(y // 2) * ((size.x + 1) // 2) + x // 2] = average
    return Downsampled(average=average, nearest=nearest, edge=edge)


# --- the input and the dispatch ----------------------------------------------------------------
def test_card(width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """The image, (height, width) float32: a zone plate over a dim vertical gradient, a patch of
    one-pixel stripes and a bright disc; every texel a multiple of 1/256 (exact sums)."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    cx, cy = x + 0.5, y + 0.5
    image = 0.25 + 0.35 * cy / height
    # the zone plate: cos(pi k r^2) has k r cycles per pixel at radius r: 0.45 at its rim, under
    # the full image's limit (0.5) but far above the half-size image's (0.25 per full pixel)
    r2 = (cx - ZONE[0]) ** 2 + (cy - ZONE[1]) ** 2
    zone = 0.5 + 0.5 * np.cos(np.pi * (0.45 / ZONE_R) * r2)
    image = np.where(r2 < ZONE_R ** 2, zone, image)
    x0, y0, x1, y1 = STRIPES
    image = np.where((x >= x0) & (x < x1) & (y >= y0) & (y < y1), x % 2, image)
    image = np.where((cx - DISC[0]) ** 2 + (cy - DISC[1]) ** 2 < DISC_R ** 2, 0.95, image)
    return (np.round(image * 256) / 256).astype(np.float32)


def half_size(width: int, height: int) -> tuple[int, int]:
    """The half-size image's (width, height): one texel per quad."""
    return (width + 1) // 2, (height + 1) // 2


def setup(width: int = WIDTH, height: int = HEIGHT, image: np.ndarray | None = None) -> dict:
    """The dispatch's size and bindings (also what ``asyncshader crosscheck
    examples/quad_downsample.py::downsample`` runs): the image, a zeroed half-size buffer and
    the size uniform."""
    hw, hh = half_size(width, height)
    return {"width": width, "height": height,
            "texel": test_card(width, height) if image is None else image,
            "half": np.zeros(hw * hh, np.float32), "size": vec2u(width, height)}


def render(width: int = WIDTH, height: int = HEIGHT, image: np.ndarray | None = None) -> dict:
    """Runs the shader; returns the per-pixel ``average``, ``nearest`` and ``edge`` arrays
    (height, width) and the stored ``half`` image, (ceil(height / 2), ceil(width / 2))."""
    given = setup(width, height, image)
    result = ash.run_fragments(downsample, **given)
    hw, hh = half_size(width, height)
    return {**result.output, "half": given["half"].reshape(hh, hw), "texel": given["texel"]}


def picture(out: dict, zoom: int = ZOOM) -> np.ndarray:
    """The image, the stored half-size image, the point-sampled one and the edges side by side,
    as uint8 grey; each panel the size of the full image times ``zoom``."""
    h, w = out["texel"].shape

    def up(a: np.ndarray, k: int) -> np.ndarray:
        return np.kron(a, np.ones((k, k)))[: h * zoom, : w * zoom]

    gap = np.ones((h * zoom, 3 * zoom))
    panels = [up(out["texel"], zoom), gap, up(out["half"], 2 * zoom), gap,
              up(out["nearest"], zoom), gap, up(np.minimum(out["edge"], 1), zoom)]
    return np.round(np.concatenate(panels, axis=1) * 255).astype(np.uint8)


def main(png_path: str | Path | None = None) -> dict:
    """Halves the test card, checks the result against numpy, writes the picture; returns the
    arrays and the statistics."""
    out = render()
    hw, hh = half_size(WIDTH, HEIGHT)
    # numpy: clamp to the edge (repeat the last column and row), then the mean of each 2x2 block
    padded = np.pad(out["texel"], ((0, 2 * hh - HEIGHT), (0, 2 * hw - WIDTH)), mode="edge")
    expected = padded.reshape(hh, 2, hw, 2).mean(axis=(1, 3), dtype=np.float64)
    # what the helpers see (asyncshader's rule: a float input extended linearly past the edge)
    # and what their made-up texels would do to the half-size image without the clamp
    extended = np.pad(out["texel"], ((0, 2 * hh - HEIGHT), (0, 2 * hw - WIDTH)), mode="reflect",
                      reflect_type="odd")
    unclamped = extended.reshape(hh, 2, hw, 2).mean(axis=(1, 3), dtype=np.float64)
    x0, y0, x1, y1 = STRIPES
    stats = {
        "size": (WIDTH, HEIGHT),
        "half_size": (hw, hh),
        "helpers": 4 * hw * hh - WIDTH * HEIGHT,
        "matches_numpy": bool(np.array_equal(out["half"], expected)),
        "unclamped_error": float(np.abs(unclamped - expected).max()),
        # (the stripes' quads left of the last column, which averages column WIDTH - 1 alone)
        "stripes_box": float(out["average"][y0:y1, x0:x1 - 1].mean()),
        "stripes_point": float(out["nearest"][y0:y1, x0:x1 - 1].mean()),
    }
    print(f"Half-size image with quad operations: {WIDTH}x{HEIGHT} -> {hw}x{hh} "
          f"({stats['helpers']} helper invocations pad the last column and row of quads)")
    print("  box filter (quadSwapX, quadSwapY; stored by quad id 0) against numpy's 2x2 mean of "
          "the edge-clamped image,")
    print(f"    same values as numpy: {'yes' if stats['matches_numpy'] else 'NO'}")
    print("  without the clamp, the helpers' made-up texels would move the last column and row "
          f"by up to {stats['unclamped_error']:.3f}")
    print(f"  stripes one pixel wide: box filter {stats['stripes_box']:.3f} (grey), point "
          f"sampling (quadBroadcast id 0) {stats['stripes_point']:.3f} (black: aliased)")
    image = picture(out)
    if png_path is None:
        png_path = Path("quad_downsample.png")  # where the user runs it, as a script would
    written = save_png(image, png_path)
    if written is None:
        print("  (install Pillow, the 'images' extra, to get the picture)")
    else:
        print(f"  picture (image | box filter | point sampling | edges): {written}")
    return {**out, "expected": expected, "image": image, "png": written, **stats}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
