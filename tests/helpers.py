"""Helpers shared by the tests: loading the examples, numpy models of their algorithms, small
kernels that several test modules explore."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

import asyncshader as ash
from asyncshader import u32

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA_DIR = TESTS / "data"
EXAMPLES = ROOT / "examples"


def load_example(name: str):
    """Imports examples/<name> from its file path, as its own module."""
    path = EXAMPLES / name
    mod_name = f"asyncshader_example_{path.stem}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[mod_name]
        raise
    return module


def numpy_tree_sum(values: np.ndarray, width: int) -> np.float32:
    """A multi-pass tree reduction done in numpy float32, adding in the kernels' order: each
    pass halves blocks of ``width`` (zero padded), until one block is left."""
    data = values.astype(np.float32)
    while True:
        groups = -(-data.size // width)
        blocks = np.zeros(groups * width, np.float32)
        blocks[:data.size] = data
        blocks = blocks.reshape(groups, width)
        stride = width // 2
        while stride:
            blocks[:, :stride] += blocks[:, stride:2 * stride]
            stride //= 2
        data = blocks[:, 0].copy()
        if groups == 1:
            return data[0]



def quad_downsample_model(texel: np.ndarray) -> dict[str, np.ndarray]:
    """examples/quad_downsample.py in numpy (float64, exact for texels that are multiples of
    1/256): clamp the image to the edge up to whole 2x2 blocks, then per block the mean (the
    half-size image), the upper-left texel (point sampling) and the Roberts cross
    |P0 - P3| + |P1 - P2|; the per-pixel outputs are the block values drawn back over the
    image."""
    h, w = texel.shape
    hh, hw = (h + 1) // 2, (w + 1) // 2
    padded = np.pad(texel.astype(np.float64), ((0, 2 * hh - h), (0, 2 * hw - w)), mode="edge")
    q = padded.reshape(hh, 2, hw, 2)               # q[i, row, j, column]: quad (i, j)
    half = q.mean(axis=(1, 3))
    nearest = q[:, 0, :, 0]
    edge = np.abs(q[:, 0, :, 0] - q[:, 1, :, 1]) + np.abs(q[:, 0, :, 1] - q[:, 1, :, 0])

    def up(a: np.ndarray) -> np.ndarray:
        return np.kron(a, np.ones((2, 2)))[:h, :w]

    return {"half": half, "average": up(half), "nearest": up(nearest), "edge": up(edge)}

# ------------------------------------------------- two invocations adding atomically (explore)
@ash.compute(workgroup_size=2)
async def shared_add(c: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(c, 0), 1)


@ash.compute(workgroup_size=2)
async def private_adds(c: ash.Storage, *, local_invocation_index: u32):
    await ash.atomic_add(ash.ptr(c, local_invocation_index), 1)
    await ash.atomic_add(ash.ptr(c, local_invocation_index), 1)


def two():
    """Fresh bindings for shared_add and private_adds."""
    return {"c": np.zeros(2, np.uint32)}
