"""webgpu-samples' game of life step (tests/data/ports/webgpu-samples_gameOfLife_compute.wgsl),
ported: every cell of a wrapping grid counts its eight neighbours in ``current`` and writes its
next state to ``next``. As in the original, the helpers read the module-scope bindings by
name."""

import numpy as np

import asyncshader as ash
from asyncshader import u32, vec2u, vec3u

ORIGINAL = "webgpu-samples_gameOfLife_compute.wgsl"
WIDTH, HEIGHT = 16, 8          # 2 x 1 workgroups of 8 x 8

# The original's `var<storage, read> size: vec2u` is one vec2u, not an array: asyncshader has
# no storage binding of one non-array, non-atomic value (ash.storage declares array<T>), so
# `size` is an array of one vec2u (the same 8 bytes) read as size[0].
size = ash.storage(vec2u, group=0, binding=0, access="read")
current = ash.storage(u32, group=0, binding=1, access="read")
next = ash.storage(u32, group=0, binding=2)

# `override blockSize = 8;` sizes the workgroup, which an ash.override cannot (workgroup_size
# takes a number or a module constant): it is a module constant.
BLOCK_SIZE = 8
WORKGROUPS = (WIDTH // BLOCK_SIZE, HEIGHT // BLOCK_SIZE)


def get_index(x: u32, y: u32) -> u32:
    h = size[0].y
    w = size[0].x
    return (y % h) * w + (x % w)


def get_cell(x: u32, y: u32) -> u32:
    return current[get_index(x, y)]


def count_neighbors(x: u32, y: u32) -> u32:
    return (get_cell(x - 1, y - 1) + get_cell(x, y - 1) + get_cell(x + 1, y - 1)
            + get_cell(x - 1, y) + get_cell(x + 1, y)
            + get_cell(x - 1, y + 1) + get_cell(x, y + 1) + get_cell(x + 1, y + 1))


@ash.compute(workgroup_size=(BLOCK_SIZE, BLOCK_SIZE))
async def main(*, global_invocation_id: vec3u):
    x = global_invocation_id.x
    y = global_invocation_id.y
    n = count_neighbors(x, y)
    next[get_index(x, y)] = ash.select(u32(n == 3), u32(n == 2 or n == 3), get_cell(x, y) == 1)


def setup(seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"size": np.array([[WIDTH, HEIGHT]], np.uint32),
            "current": (rng.random(WIDTH * HEIGHT) < 0.4).astype(np.uint32),
            "next": np.zeros(WIDTH * HEIGHT, np.uint32)}


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs (``size`` is its
    ``vec2u``: the port's one vec2u)."""
    return dict(bindings)


KERNELS = {"main": main}
OUTPUTS = {"next": "next"}  # original's name -> the port's
