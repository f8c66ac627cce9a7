"""Flocking (boids) as WGSL shaders are usually written: module-scope bindings that helper
functions use by name.

What this example teaches (WGSL concepts):

* ``params = ash.uniform(SimParams, group=0, binding=0)`` and ``ash.storage(Boid, group=0,
  binding=1, access="read")`` are WGSL's module-scope ``@group(0) @binding(0) var<uniform>`` and
  ``var<storage, read>``: declared once, with their binding points, used by name in the kernel
  *and* in the helpers it calls (``rules``, ``wrap``), bound by name at each run:
  ``ash.run(update, n, boids_in=a, boids_out=b, params=...)``. ``ash.to_wgsl(update)`` declares
  each once, at its point (``asyncshader wgsl examples/boids.py::update``).
* A simulation step reads one buffer and writes another; the host swaps which array it binds
  to which name between steps (WGSL's "ping-pong" bind groups): the shader never changes.
* Each boid steers by three rules over its neighbours: towards their centre (cohesion), away
  from the closest (separation), along their mean velocity (alignment); its speed is clamped.

The positions start on a grid of multiples of 1/64, so the neighbour tests and sums are exact
in f32 on every implementation; the cross-check (``asyncshader crosscheck
examples/boids.py::update``) compares one step with a GPU's.

    python examples/boids.py
"""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec3u

N, GROUP, STEPS = 96, 32, 4


@ash.struct
class Boid:
    pos: vec2f
    vel: vec2f


@ash.struct
class SimParams:
    dt: f32
    cohesion_distance: f32
    separation_distance: f32
    alignment_distance: f32
    cohesion_scale: f32
    separation_scale: f32
    alignment_scale: f32


params = ash.uniform(SimParams, group=0, binding=0)
boids_in = ash.storage(Boid, group=0, binding=1, access="read")
boids_out = ash.storage(Boid, group=0, binding=2)


def rules(i: u32) -> vec2f:
    """The change of boid ``i``'s velocity the three rules ask for."""
    me = boids_in[i].pos
    centre = vec2f(0.0, 0.0)
    away = vec2f(0.0, 0.0)
    heading = vec2f(0.0, 0.0)
    near = u32(0)
    along = u32(0)
    for j in range(ash.array_length(boids_in)):
        if j == i:
            continue
        d = boids_in[j].pos - me
        d2 = ash.dot(d, d)
        if d2 < params.cohesion_distance * params.cohesion_distance:
            centre += boids_in[j].pos
            near += 1
        if d2 < params.separation_distance * params.separation_distance:
            away -= d
        if d2 < params.alignment_distance * params.alignment_distance:
            heading += boids_in[j].vel
            along += 1
    if near > 0:
        centre = centre / f32(near) - me
    if along > 0:
        heading = heading / f32(along)
    return (centre * params.cohesion_scale + away * params.separation_scale
            + heading * params.alignment_scale)


def wrap(p: vec2f) -> vec2f:
    """Leaving the square [-1, 1]^2 on one side enters it on the other."""
    return ash.select(p, p - ash.sign(p) * 2.0, ash.abs(p) > vec2f(1.0, 1.0))


@ash.compute(workgroup_size=GROUP)
async def update(*, global_invocation_id: vec3u):
    i = global_invocation_id.x
    if i >= ash.array_length(boids_in):
        return
    vel = boids_in[i].vel + rules(i)
    vel = ash.normalize(vel) * ash.clamp(ash.length(vel), 0.0, 0.1)
    boids_out[i].vel = vel
    boids_out[i].pos = wrap(boids_in[i].pos + vel * params.dt)


def start(n: int = N) -> np.ndarray:
    """``n`` boids on a grid of multiples of 1/64, heading in rotating directions."""
    rng = np.random.default_rng(7)
    b = Boid.zeros(n)
    b["pos"] = rng.integers(-48, 48, (n, 2)) / 64
    angle = np.arange(n) * 0.7
    b["vel"] = np.stack([np.cos(angle), np.sin(angle)], 1) * 0.05
    return b


def sim_params() -> SimParams:
    return SimParams(dt=0.04, cohesion_distance=0.1, separation_distance=0.025,
                     alignment_distance=0.025, cohesion_scale=0.02, separation_scale=0.05,
                     alignment_scale=0.005)


def numpy_step(b: np.ndarray, p: SimParams) -> np.ndarray:
    """The same step in float32 numpy, written from the rules above (not from the shader)."""
    pos, vel = b["pos"].astype(np.float32), b["vel"].astype(np.float32)
    d = pos[None, :, :] - pos[:, None, :]                       # d[i, j] = pos[j] - pos[i]
    d2 = (d * d).sum(-1)
    others = ~np.eye(len(b), dtype=bool)
    f = np.float32
    near = others & (d2 < f(p.cohesion_distance) ** 2)
    close = others & (d2 < f(p.separation_distance) ** 2)
    along = others & (d2 < f(p.alignment_distance) ** 2)
    n_near, n_along = near.sum(1, keepdims=True), along.sum(1, keepdims=True)
    centre = np.where(n_near > 0, (near[..., None] * pos[None]).sum(1)
                      / np.maximum(n_near, 1) - pos, 0)
    away = -(close[..., None] * d).sum(1)
    heading = np.where(n_along > 0, (along[..., None] * vel[None]).sum(1)
                       / np.maximum(n_along, 1), 0)
    v = vel + centre * f(p.cohesion_scale) + away * f(p.separation_scale) \
        + heading * f(p.alignment_scale)
    speed = np.sqrt((v * v).sum(1, keepdims=True))
    v = v / speed * np.clip(speed, 0, 0.1)
    q = pos + v * f(p.dt)
    q = np.where(np.abs(q) > 1, q - np.sign(q) * 2, q)
    out = Boid.zeros(len(b))
    out["pos"], out["vel"] = q, v
    return out


def setup() -> dict:
    """One step's bindings, for ``asyncshader crosscheck examples/boids.py::update``."""
    return dict(workgroups=-(-N // GROUP), boids_in=start(), boids_out=Boid.zeros(N),
                params=sim_params())


def main() -> np.ndarray:
    a, b, p = start(), Boid.zeros(N), sim_params()
    expected = a
    for _ in range(STEPS):
        ash.run(update, -(-N // GROUP), boids_in=a, boids_out=b, params=p)
        expected = numpy_step(expected, p)
        a, b = b, a                                # the host swaps the bindings
    same = np.allclose(a["pos"], expected["pos"], rtol=0, atol=1e-5) and np.allclose(
        a["vel"], expected["vel"], rtol=0, atol=1e-5)
    print(f"{N} boids, {STEPS} steps: same positions and velocities as numpy: "
          f"{'yes' if same else 'NO'}")
    print(f"mean speed {np.linalg.norm(a['vel'], axis=1).mean():.4f} (clamped to 0.1)")
    return a


if __name__ == "__main__":
    main()
