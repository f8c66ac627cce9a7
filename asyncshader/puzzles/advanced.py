"""Puzzles 6-10: a lost update, a tiled matmul, quad derivatives, a subgroup vote, a spin lock."""

from __future__ import annotations

from typing import Any

import numpy as np

from .basics import starter
from .checker import Puzzle

f32, u32 = np.float32, np.uint32

# ----------------------------------------------------------------------------- 6. lost update
COUNT = """A lost update: count[0] = how many elements of a are odd. 2 workgroups of 8
invocations each look at one element a[g] (g = global_invocation_id.x) and, if it is odd, add 1
to count[0]. Many invocations add to the same counter at the same time."""


def _count_setup() -> dict[str, Any]:
    return {"a": np.array([3, 8, 5, 5, 0, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3], u32),
            "count": np.zeros(1, u32), "workgroups": 2}


P6 = Puzzle(6, "a lost update", "count_odd", COUNT, starter(COUNT, """
    @ash.compute(workgroup_size=8)
    async def count_odd(a: ash.Storage, count: ash.Storage, *, global_invocation_id: vec3u):
        g = global_invocation_id.x
        # your code
    """), _count_setup, lambda b: {"count": np.array([np.sum(b["a"] % 2 == 1)], u32)})


# ------------------------------------------------------------------------------ 7. tiled matmul
MATMUL = """A tiled matrix product: C = A @ B for 4x4 matrices stored row by row (C[r * 4 +
c]). Workgroups of 2x2 invocations (4 of them, workgroups=(2, 2)) each compute a 2x2 block of
C; invocation (x, y) computes row r = 2 * workgroup_id.y + y and column c = 2 * workgroup_id.x +
x. In each of the 2 steps t, the workgroup copies a 2x2 tile of A (columns 2t, 2t+1 of its rows)
into ta and one of B (rows 2t, 2t+1 of its columns) into tb, every invocation loading one
element of each, and then each adds its 2 products. Mind both barriers: one before the tiles
are read, one before they are overwritten."""


def _matmul_setup() -> dict[str, Any]:
    return {"A": (np.arange(16, dtype=f32) % 5) - f32(2), "B": np.arange(16, dtype=f32) / 4,
            "C": np.zeros(16, f32), "workgroups": (2, 2)}


P7 = Puzzle(7, "a tiled matmul", "matmul", MATMUL, starter(MATMUL, """
    ta = ash.workgroup(ash.array(f32, 4))
    tb = ash.workgroup(ash.array(f32, 4))


    @ash.compute(workgroup_size=(2, 2))
    async def matmul(A: ash.Storage, B: ash.Storage, C: ash.Storage, *,
                     local_invocation_id: vec3u, workgroup_id: vec3u):
        x, y = local_invocation_id.x, local_invocation_id.y
        r, c = 2 * workgroup_id.y + y, 2 * workgroup_id.x + x
        acc = f32(0)
        for t in range(2):
            pass  # your code: load ta[y * 2 + x] and tb[y * 2 + x], then add 2 products
        C[r * 4 + c] = acc
    """), _matmul_setup,
    lambda b: {"C": (b["A"].reshape(4, 4) @ b["B"].reshape(4, 4)).reshape(16)})


# ------------------------------------------------------------------------ 8. quad derivatives
QUADS = """Quad derivatives: a 4x4 workgroup stands for 4x4 pixels, grouped in 2x2 quads
(derivatives="quads"). Every invocation computes v = x * x + 3 * y from its
local_invocation_id (x, y) and writes out[y * 4 + x] = fwidth(v): how fast v changes around
it, |dpdx(v)| + |dpdy(v)|. On a GPU, dpdx is the difference between the right and left pixels
of the quad (coarse: the top row's), not the exact derivative 2x. Derivatives are collective:
every invocation of a quad must call them."""


def _quads_setup() -> dict[str, Any]:
    return {"out": np.zeros(16, f32), "workgroups": 1}


def _quads_expected(b: dict[str, Any]) -> dict[str, np.ndarray]:
    out = np.zeros((4, 4), f32)
    for y in range(4):
        for x in range(4):
            x0, y0 = x - x % 2, y - y % 2  # the quad's top-left pixel
            ddx = (x0 + 1) ** 2 - x0 ** 2
            ddy = 3 * (y0 + 1) - 3 * y0
            out[y, x] = abs(ddx) + abs(ddy)
    return {"out": out.reshape(16)}


def _quads_diagnose(name: str, got: np.ndarray, want: np.ndarray) -> str | None:
    x = np.tile(np.arange(4, dtype=f32), 4)
    if np.allclose(got, 2 * x + 3):
        return ("out holds the exact derivative 2x + 3; a GPU's fwidth is computed from the "
                "neighbours in the 2x2 quad: call fwidth(v) (await it).")
    return None


P8 = Puzzle(8, "quad derivatives", "edges", QUADS, starter(QUADS, """
    @ash.compute(workgroup_size=(4, 4), derivatives="quads")
    async def edges(out: ash.Storage, *, local_invocation_id: vec3u):
        x, y = f32(local_invocation_id.x), f32(local_invocation_id.y)
        v = x * x + 3 * y
        # your code: out[...] = await ash.fwidth(v)
    """), _quads_setup, _quads_expected, _quads_diagnose)


# ------------------------------------------------------------------------------ 10. spin lock
LOCK = """A spin lock: 4 invocations each run a critical section on data (two atomic
u32): read d0 and d1, then store d0 + 1 and d1 + d0. Run one at a time, they leave d0 = 4 and
d1 = 0 + 1 + 2 + 3 = 6 whatever their order; two at once break it. Guard the critical section
with a lock in lock[0] (0 free, 1 taken): spin until you take it, release it after. WGSL
atomics are relaxed (they order nothing else), which is why data is atomic too."""


def _lock_setup() -> dict[str, Any]:
    return {"lock": np.zeros(1, u32), "data": np.zeros(2, u32), "workgroups": 1}


def _lock_diagnose(name: str, got: np.ndarray, want: np.ndarray) -> str | None:
    if name == "data" and not np.array_equal(got, want):
        return (f"data is {got.tolist()}, not {want.tolist()}: two invocations were in the "
                "critical section at once. Take the lock with ONE atomic that tests and sets "
                "together (`while await atomic_exchange(ptr(lock, 0), 1) != 0:`), not a load "
                "and then a store: another invocation can run in between.")
    return None


P10 = Puzzle(10, "a spin lock", "locked_update", LOCK, starter(LOCK, """
    from asyncshader import atomic_exchange, atomic_load, atomic_store


    @ash.compute(workgroup_size=4)
    async def locked_update(lock: ash.Storage, data: ash.Storage):
        # your code: take the lock
        d0 = await atomic_load(ptr(data, 0))
        d1 = await atomic_load(ptr(data, 1))
        await atomic_store(ptr(data, 0), d0 + 1)
        await atomic_store(ptr(data, 1), d1 + d0)
        # your code: release the lock
    """), _lock_setup, lambda b: {"data": np.array([4, 6], u32)}, _lock_diagnose,
    seeds=tuple(range(4, 16)))
