"""WGSL's ``vecN(...)`` without a component type, ``ash.vec3(1.0, 2.0, 3.0)``: the same
component type on the CPU and in the emitted WGSL (a typed argument's, else f32 when a Python
float is among them, else i32, bool for bools), and the same values on lavapipe."""

from __future__ import annotations

import numpy as np

import asyncshader as ash
from asyncshader import f32, u32
from asyncshader.extra.gpu import crosscheck


def test_the_cpu_infers_the_component_type_as_wgsl_does():
    assert type(ash.vec2(0.0)) is ash.vec2f and ash.vec2(0.0) == ash.vec2f(0.0, 0.0)
    assert type(ash.vec3(1, 2, 3)) is ash.vec3i
    assert type(ash.vec2(1, 2.5)) is ash.vec2f
    assert type(ash.vec2(u32(7), 2)) is ash.vec2u
    assert type(ash.vec3(ash.vec2h(1.0, 2.0), 3)) is ash.vec3h
    assert type(ash.vec4(True, False, True, True)) is ash.vec4b


@ash.compute(workgroup_size=4)
async def inferred(out: ash.Storage[f32], *, local_invocation_index: u32):
    i = local_invocation_index
    v = ash.vec2(0.5) + ash.vec2(f32(i), 1.0)
    w = ash.vec3(1, 2, 3)
    out[i] = v.x + v.y + f32(w.z)


def test_the_emitter_writes_the_inferred_type_and_lavapipe_agrees(gpu_device):
    text = ash.to_wgsl(inferred)
    assert "let v = vec2f(0.5) + vec2f(f32(i), 1.0);" in text
    assert "let w = vec3i(1, 2, 3);" in text
    report = crosscheck(inferred, 1, out=np.zeros(4, np.float32), device=gpu_device)
    assert report.gpu["out"].tolist() == [5.0, 6.0, 7.0, 8.0]  # 0.5 + i + 1 + 3
