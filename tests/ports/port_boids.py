"""webgpu-samples' compute boids (tests/data/ports/webgpu-samples_computeBoids_updateSprites.wgsl),
ported: each particle steers by the three flocking rules over every other particle of
``particles_a`` and writes its new position and velocity to ``particles_b``."""

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32, vec2f, vec3u

ORIGINAL = "webgpu-samples_computeBoids_updateSprites.wgsl"
N = 64
WORKGROUPS = N // 64
#: CPU against lavapipe (distance, normalize and length: 2 ulp apart, measured), per entry
TOLERANCE = {"main": (1e-6, 1e-8)}


@ash.struct
class Particle:
    pos: vec2f
    vel: vec2f


@ash.struct
class SimParams:
    delta_t: f32
    rule1_distance: f32
    rule2_distance: f32
    rule3_distance: f32
    rule1_scale: f32
    rule2_scale: f32
    rule3_scale: f32


@ash.struct
class Particles:
    particles: ash.runtime_array(Particle)


params = ash.uniform(SimParams, group=0, binding=0)
particles_a = ash.storage(Particles, group=0, binding=1, access="read")
particles_b = ash.storage(Particles, group=0, binding=2)


@ash.compute(workgroup_size=64)
async def main(*, global_invocation_id: vec3u):
    index = global_invocation_id.x

    v_pos = particles_a.particles[index].pos
    v_vel = particles_a.particles[index].vel
    c_mass = ash.vec2(0.0)
    c_vel = ash.vec2(0.0)
    col_vel = ash.vec2(0.0)
    c_mass_count = u32(0)
    c_vel_count = u32(0)
    pos = vec2f()
    vel = vec2f()

    for i in range(ash.array_length(particles_a.particles)):
        if i == index:
            continue

        pos = particles_a.particles[i].pos.xy
        vel = particles_a.particles[i].vel.xy
        if ash.distance(pos, v_pos) < params.rule1_distance:
            c_mass += pos
            c_mass_count += 1
        if ash.distance(pos, v_pos) < params.rule2_distance:
            col_vel -= pos - v_pos
        if ash.distance(pos, v_pos) < params.rule3_distance:
            c_vel += vel
            c_vel_count += 1
    if c_mass_count > 0:
        c_mass = (c_mass / vec2f(f32(c_mass_count))) - v_pos
    if c_vel_count > 0:
        c_vel /= f32(c_vel_count)
    v_vel += (c_mass * params.rule1_scale) + (col_vel * params.rule2_scale) \
        + (c_vel * params.rule3_scale)

    # clamp velocity for a more pleasing simulation
    v_vel = ash.normalize(v_vel) * ash.clamp(ash.length(v_vel), 0.0, 0.1)
    # kinematic update
    v_pos = v_pos + (v_vel * params.delta_t)
    # wrap around boundary
    if v_pos.x < -1.0:
        v_pos.x = 1.0
    if v_pos.x > 1.0:
        v_pos.x = -1.0
    if v_pos.y < -1.0:
        v_pos.y = 1.0
    if v_pos.y > 1.0:
        v_pos.y = -1.0
    # write back
    particles_b.particles[index].pos = v_pos
    particles_b.particles[index].vel = v_vel


PARAMS = SimParams(delta_t=0.04, rule1_distance=0.1, rule2_distance=0.025,
                   rule3_distance=0.025, rule1_scale=0.02, rule2_scale=0.05, rule3_scale=0.005)


def setup(seed: int = 0) -> dict:
    """The sample's start: positions and velocities uniform in [-1, 1) and [-0.1, 0.1)
    (denser here, 64 particles in a quarter of the square, so that every rule fires)."""
    rng = np.random.default_rng(seed)
    a = Particles.zeros(length=N)
    a["particles"]["pos"] = (rng.random((N, 2)) - 0.5).astype(np.float32)
    a["particles"]["vel"] = ((rng.random((N, 2)) * 2 - 1) * 0.1).astype(np.float32)
    return {"params": PARAMS, "particles_a": a, "particles_b": Particles.zeros(length=N)}


def original_bindings(bindings: dict) -> dict:
    """The original's bindings, by its names, for the same inputs: SimParams is seven f32."""
    p = bindings["params"]
    words = np.array([p.delta_t, p.rule1_distance, p.rule2_distance, p.rule3_distance,
                       p.rule1_scale, p.rule2_scale, p.rule3_scale], np.float32)
    return {"params": words.tobytes(), "particlesA": bindings["particles_a"],
            "particlesB": bindings["particles_b"]}


KERNELS = {"main": main}
OUTPUTS = {"particlesB": "particles_b"}  # original's name -> the port's
