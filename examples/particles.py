"""A particle system on struct buffers: ``@ash.struct`` with WGSL's layout, a uniform struct, and
a workgroup-shared tile.

What this example teaches (WGSL concepts):

* A struct declared once (``@ash.struct class Particle``) has WGSL's host-shareable layout:
  ``Particle.dtype`` places every member at the byte offset a GPU would (a ``vec3f`` aligns to
  16 bytes, so ``color`` starts at 32 and each particle takes 48 bytes), so
  ``Particle.zeros(n)`` is byte for byte the ``array<Particle>`` a WebGPU buffer would hold.
* In the shader ``p[i]`` is a reference: ``p[i].velocity = v`` and ``p[i].age += 1`` store one
  member; the race detector sees each member as its own memory location.
* The simulation parameters are a uniform struct (``var<uniform> u: Params``), checked against
  the uniform address space's layout rules when bound. Its ``spin`` member is a ``mat2x2f``
  (a rotation, 16 bytes at offset 16: two ``vec2f`` columns); ``u.spin * d`` is WGSL's
  matrix-vector product.
* Each workgroup loads its particles' positions and masses into a ``var<workgroup>`` tile,
  waits at ``workgroup_barrier()``, and every invocation then reads the whole tile to find the
  workgroup's centre of mass, which pulls (and, through the matrix, swirls) its particles.

Run it from the repository root (with asyncshader installed, or ``PYTHONPATH=.``)::

    python examples/particles.py [out.png]

(the picture goes to ``out.png``, by default ``particles.png`` in the current directory; it needs
Pillow, the ``images`` extra): the particles after STEPS steps, each workgroup in its colour,
with their trails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import asyncshader as ash
from asyncshader import array, f32, mat2x2f, u32, vec2f, vec3f, vec3u, vec4f
from asyncshader.tools.images import save_png  # Pillow is optional (the "images" extra)

#: particles, particles per workgroup (one tile), steps simulated, picture size in pixels
N, GROUP, STEPS, SIZE = 128, 64, 24, 160


@ash.struct
class Particle:
    position: vec2f     # offset 0
    velocity: vec2f     # 8
    mass: f32           # 16
    age: u32            # 20
    color: vec3f        # 32 (a vec3f aligns to 16); size 48


@ash.struct
class Params:
    gravity: vec2f      # 0
    dt: f32             # 8
    damping: f32        # 12
    spin: mat2x2f       # 16 (align 8, size 16: two vec2f columns)
    pull: f32           # 32; align 8, size 40


tile = ash.workgroup(array(vec4f, GROUP))  # var<workgroup> tile: array<vec4f, 64>


@ash.compute(workgroup_size=GROUP)
async def step(p: ash.Storage[Particle], u: ash.Uniform[Params], *, global_invocation_id: vec3u,
               local_invocation_index: u32):
    i = global_invocation_id.x
    q = p[i].position
    tile[local_invocation_index] = vec4f(q.x, q.y, p[i].mass, 0.0)
    await ash.workgroup_barrier()
    centre = vec2f(0.0, 0.0)
    total = f32(0.0)
    for k in range(GROUP):
        t = tile[k]
        centre = centre + vec2f(t.x, t.y) * t.z
        total = total + t.z
    d = centre / total - q
    swirl = u.spin * d                        # mat2x2f * vec2f
    v = (p[i].velocity + (swirl * u.pull + u.gravity) * u.dt) * u.damping
    p[i].velocity = v
    p[i].position = q + v * u.dt
    p[i].age += 1


def start() -> np.ndarray:
    """The particles at rest in two clouds (one per workgroup; a seeded generator)."""
    rng = np.random.default_rng(18)
    p = Particle.zeros(N)
    k = np.arange(N)
    angle = rng.uniform(0, 2 * np.pi, N)
    radius = 0.35 * np.sqrt(rng.uniform(0, 1, N))
    centre = np.where((k < GROUP)[:, None], [-0.3, 0.25], [0.3, -0.1])
    p["position"] = centre + np.stack([radius * np.cos(angle), radius * np.sin(angle)], 1)
    p["mass"] = rng.uniform(0.5, 2.0, N)
    p["color"] = np.where((k < GROUP)[:, None], [1.0, 0.6, 0.2], [0.3, 0.7, 1.0])
    return p


def params() -> Params:
    turn = 0.6  # the swirl matrix: a rotation by `turn` radians
    return Params(gravity=vec2f(0.0, -0.05), dt=0.05, damping=0.99,
                  spin=mat2x2f(np.cos(turn), np.sin(turn), -np.sin(turn), np.cos(turn)),
                  pull=2.0)


def setup() -> dict:
    """One step, for the command line (``asyncshader run|wgsl|crosscheck
    examples/particles.py::step``; cross-check with ``--ulp 32``: ``u.spin * d`` is rounded
    once on the CPU, and WGSL allows a matrix product a dot product's error)."""
    return {"workgroups": N // GROUP, "p": start(), "u": params()}


def simulate(steps: int | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Runs ``steps`` dispatches (default STEPS; race detector on, ``sanitize="error"``: a race
    would raise); returns the buffer and the positions after every step (the trails)."""
    p, u = start(), params()
    trail = [p["position"].copy()]
    for _ in range(STEPS if steps is None else steps):
        ash.run(step, N // GROUP, p=p, u=u, sanitize="error")
        trail.append(p["position"].copy())
    return p, trail


def picture(p: np.ndarray, trail: list[np.ndarray]) -> np.ndarray:
    """The trails (dim) and the particles after the last step (3x3 dots), y up."""
    image = np.zeros((SIZE, SIZE, 3), np.uint8)
    for n, positions in enumerate(trail):
        bright = 0.15 + 0.85 * (n == len(trail) - 1)
        half = 1 if n == len(trail) - 1 else 0
        xy = np.round((positions + 1.0) / 2.0 * (SIZE - 1)).astype(int)
        for (x, y), color in zip(xy, p["color"]):
            if half <= x < SIZE - half and half <= y < SIZE - half:
                row = SIZE - 1 - y
                image[row - half:row + half + 1, x - half:x + half + 1] = np.maximum(
                    image[row - half:row + half + 1, x - half:x + half + 1],
                    np.round(color * 255 * bright).astype(np.uint8))
    return image


def main(png_path: str | Path | None = None) -> dict:
    """Simulates, prints what happened, writes the picture; returns the buffer and the picture."""
    p, trail = simulate()
    print(f"Particle: {Particle.size} bytes, align {Particle.align}, offsets {Particle.offsets}")
    print(f"{N} particles, {len(trail) - 1} steps in workgroups of {GROUP}: every particle aged "
          f"{int(p['age'].min())} steps")
    for g in range(N // GROUP):
        mine = p[g * GROUP:(g + 1) * GROUP]
        centre = np.average(mine["position"], axis=0, weights=mine["mass"])
        print(f"  workgroup {g}: centre of mass ({centre[0]:+.3f}, {centre[1]:+.3f}), "
              f"mean speed {np.linalg.norm(mine['velocity'], axis=1).mean():.3f}")
    image = picture(p, trail)
    written = save_png(image, Path("particles.png") if png_path is None else png_path)
    if written is None:
        print("  (install Pillow, the 'images' extra, to get the picture)")
    else:
        print(f"  picture: {written}")
    return {"particles": p, "trail": trail, "image": image, "png": written}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
