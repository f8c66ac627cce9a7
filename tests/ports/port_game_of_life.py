"""webgpu-samples' game of life step (tests/data/ports/webgpu-samples_gameOfLife_compute.wgsl),
ported: every cell of a wrapping grid counts its eight neighbours in ``current`` and writes its
next state to ``next``.

As in the original, the helpers read the bindings; they take them as parameters, since a
helper cannot name a kernel's binding. ``override blockSize = 8`` is a module constant
(BLOCK): it sizes the workgroup, which an ``ash.override`` cannot (it is read in expressions
only). The original's ``size`` is one
``vec2u`` in storage, not an array: asyncshader binds storage as arrays, so it is an array of
two u32 here (the same 8 bytes)."""

import numpy as np

import asyncshader as ash
from asyncshader import u32, vec3u

ORIGINAL = "webgpu-samples_gameOfLife_compute.wgsl"
BLOCK = 8
WIDTH, HEIGHT = 16, 8          # 2 x 1 workgroups of 8 x 8
WORKGROUPS = (WIDTH // BLOCK, HEIGHT // BLOCK)

# The helpers take bindings (size, current): to_wgsl emits them once per binding they are
# called with, naming it (docs/to-gpu.md, "Helpers that take a buffer").


def get_index(size, x, y):
    h = size[1]
    w = size[0]
    return (y % h) * w + (x % w)


def get_cell(size, current, x, y):
    return current[get_index(size, x, y)]


def count_neighbors(size, current, x, y):
    return (get_cell(size, current, x - 1, y - 1) + get_cell(size, current, x, y - 1)
            + get_cell(size, current, x + 1, y - 1) + get_cell(size, current, x - 1, y)
            + get_cell(size, current, x + 1, y) + get_cell(size, current, x - 1, y + 1)
            + get_cell(size, current, x, y + 1) + get_cell(size, current, x + 1, y + 1))


@ash.compute(workgroup_size=(BLOCK, BLOCK))
async def main(size: ash.ReadOnly[u32], current: ash.ReadOnly[u32], next: ash.Storage[u32], *,
               global_invocation_id: vec3u):
    x = global_invocation_id.x
    y = global_invocation_id.y
    n = count_neighbors(size, current, x, y)
    next[get_index(size, x, y)] = ash.select(u32(n == 3), u32(n == 2 or n == 3),
                                             get_cell(size, current, x, y) == 1)


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"size": np.array([WIDTH, HEIGHT], np.uint32),
            "current": (rng.random(WIDTH * HEIGHT) < 0.4).astype(np.uint32),
            "next": np.zeros(WIDTH * HEIGHT, np.uint32)}


def original_bindings(b: dict) -> dict:
    """The original's bindings, by its names, for the same inputs (``size`` is its
    ``vec2u``: the two u32 of the port's array)."""
    return dict(b)


KERNELS = {"main": main}
OUTPUTS = {"next": "next"}  # original's name -> the port's
