"""A 3x3 median filter: each invocation gathers its pixel's neighbourhood into a
function-scope array, sorts it, and writes the middle value.

What this example teaches (WGSL concepts):

* A function-scope array, WGSL's ``var window: array<f32, 9>;``, is
  ``window = ash.array(f32, 9)()`` (zero, as WGSL's ``var`` is); ``window[k] = x`` stores into
  it. It lives in the invocation, like any local: no other invocation sees it, so sorting it
  needs no barrier and cannot race.
* Arrays (and vectors, matrices, structs) are *values*, as in WGSL: ``before = window`` keeps
  a copy, so the sort below, which stores into ``window``, leaves ``before`` as it was. The
  example checks that too.
* Pixels past the border clamp to the edge (``clamp``), as a texture's clamp-to-edge does.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/median_filter.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import f32, i32, u32

W, H = 24, 16


@ash.compute(workgroup_size=(8, 8))
async def median3x3(image: ash.Storage[f32], out: ash.Storage[f32], kept: ash.Storage[f32],
                    *, global_invocation_id: ash.vec3u):
    """``out`` is ``image`` (``H`` rows of ``W``) with each pixel replaced by the median of
    its 3x3 neighbourhood; ``kept`` is the unsorted neighbourhood's centre (a copy taken
    before the sort), which must equal ``image``."""
    x, y = i32(global_invocation_id.x), i32(global_invocation_id.y)
    if x >= W or y >= H:
        return
    window = ash.array(f32, 9)()
    k = 0
    for dy in range(-1, 2):
        for dx in range(-1, 2):
            sx = ash.clamp(x + dx, 0, W - 1)
            sy = ash.clamp(y + dy, 0, H - 1)
            window[k] = image[u32(sy * W + sx)]
            k += 1
    before = window  # a copy: the sort below does not change it
    for i in range(1, 9):  # insertion sort
        v = window[i]
        j = i - 1
        while j >= 0 and window[j] > v:
            window[j + 1] = window[j]
            j -= 1
        window[j + 1] = v
    out[u32(y * W + x)] = window[4]
    kept[u32(y * W + x)] = before[4]


def numpy_median(image: np.ndarray) -> np.ndarray:
    """The same filter in numpy: the median of each clamped 3x3 window."""
    padded = np.pad(image, 1, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3))
    return np.median(windows.reshape(H, W, 9), axis=2).astype(np.float32)


def main() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    image = rng.random((H, W), dtype=np.float32)
    image[rng.random((H, W)) < 0.1] = 1.0  # salt noise, which the median removes
    out = np.zeros(H * W, np.float32)
    kept = np.zeros(H * W, np.float32)
    ash.run(median3x3, (W // 8, H // 8), image=image.ravel(), out=out, kept=kept)
    expected = numpy_median(image)
    same = np.array_equal(out.reshape(H, W), expected)
    print(f"3x3 median of a {W}x{H} image: same values as numpy: {'yes' if same else 'NO'}")
    print(f"the copy taken before the sort is the image: "
          f"{'yes' if np.array_equal(kept, image.ravel()) else 'NO'}")
    return out.reshape(H, W), expected


if __name__ == "__main__":
    main()
