"""examples/particles.py: a few steps of the particle system against a numpy model written
here (float32, the shader's order of operations), and its picture read back."""

import numpy as np
import pytest
from helpers import load_example


@pytest.fixture(scope="module")
def particles():
    return load_example("particles.py")


def numpy_step(p: dict, u, group: int) -> None:
    """One step of the system on plain float32 arrays (positions, velocities, masses)."""
    f = np.float32
    pos, vel, mass = p["position"], p["velocity"], p["mass"]
    for g in range(len(pos) // group):
        s = slice(g * group, (g + 1) * group)
        weighted = pos[s] * mass[s][:, None]
        centre = np.cumsum(weighted, axis=0, dtype=f)[-1]   # the shader adds in order
        total = np.cumsum(mass[s], dtype=f)[-1]
        d = centre / total - pos[s]
        sx, sy = np.asarray(u.spin, f)    # the matrix's columns (mat2x2f: a[c, r])
        swirl = sx * d[:, :1] + sy * d[:, 1:]   # m * d; the shader rounds each sum once
        gravity = np.array(list(u.gravity), f)
        v = (vel[s] + (swirl * f(u.pull) + gravity) * f(u.dt)) * f(u.damping)
        vel[s] = v
        pos[s] = pos[s] + v * f(u.dt)


def test_layout_of_the_example_structs(particles):
    # by hand: vec2f 0, vec2f 8, f32 16, u32 20, vec3f at roundUp(16, 24) = 32, size 48
    assert particles.Particle.offsets == {"position": 0, "velocity": 8, "mass": 16, "age": 20,
                                          "color": 32}
    assert particles.Particle.size == 48
    # Params: vec2f 0, f32 8, f32 12, mat2x2f (align 8, size 16) 16, f32 32; align 8 -> 40
    assert particles.Params.offsets == {"gravity": 0, "dt": 8, "damping": 12, "spin": 16,
                                        "pull": 32}
    assert particles.Params.size == 40


def test_steps_match_the_numpy_model(particles):
    steps = 3
    p, trail = particles.simulate(steps)
    start = particles.start()
    model = {k: start[k].astype(np.float32).copy() for k in ("position", "velocity", "mass")}
    for _ in range(steps):
        numpy_step(model, particles.params(), particles.GROUP)
    np.testing.assert_allclose(p["position"], model["position"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(p["velocity"], model["velocity"], rtol=1e-5, atol=1e-6)
    assert p["age"].tolist() == [steps] * particles.N
    assert len(trail) == steps + 1 and not np.array_equal(trail[0], trail[-1])
    np.testing.assert_array_equal(p["color"], start["color"])  # never written


def test_picture_is_written(particles, tmp_path, monkeypatch, capsys):
    pil = pytest.importorskip("PIL.Image")
    monkeypatch.setattr(particles, "STEPS", 2)
    out = particles.main(tmp_path / "p.png")
    image = np.asarray(pil.open(out["png"]))
    assert image.shape == (particles.SIZE, particles.SIZE, 3)
    np.testing.assert_array_equal(image, out["image"])
    red, blue = image[..., 0].astype(int), image[..., 2].astype(int)
    # both workgroups' particles are drawn at full brightness (orange: red 255; blue: blue 255)
    assert ((red == 255) & (blue < 128)).sum() > 50 and ((blue == 255) & (red < 128)).sum() > 50
    assert "2 steps" in capsys.readouterr().out
