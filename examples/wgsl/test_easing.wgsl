// WGSL unit tests in wgsl-test's conventions: `pytest examples/wgsl` runs them on the CPU
// (asyncshader's pytest plugin), `npx wgsl-test run examples/wgsl/test_easing.wgsl` on a GPU.
import wgsl_test::{expect, expectEq, expectNear, expectNearVec3, expectUlp};

// the shader code under test
fn smootherstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

fn fade(color: vec3f, t: f32) -> vec3f {
    return mix(color, vec3f(0.0), smootherstep(0.0, 1.0, t));
}

@test
fn smootherstep_quarter() {
    // 0.25^3 * (0.25 * (1.5 - 15) + 10) = 0.015625 * 6.625 = 0.103515625
    expectNear(smootherstep(0.0, 1.0, 0.25), 0.103516);
}

@test(clamped_outside_the_edges)
fn smootherstep_clamps() {
    expect(smootherstep(0.0, 1.0, -3.0) == 0.0);
    expectEq(u32(smootherstep(0.0, 1.0, 7.0)), 1u);
    expectUlp(smootherstep(2.0, 4.0, 3.0), 0.5, 0u);
}

@test
fn fade_halfway() {
    expectNearVec3(fade(vec3f(1.0, 0.5, 0.25), 0.5), vec3f(0.5, 0.25, 0.125));
}

var<workgroup> arrivals: atomic<u32>;

// asyncshader runs this one as a workgroup of 8 invocations under 20 schedules (wgsl-test
// reads the markers as comments and runs one invocation): every one counts itself
// @pytest.mark.workgroup_size(8)
// @pytest.mark.schedules(runs=20, strategy="pct")
@test
fn arrivals_are_counted_atomically() {
    let before = atomicAdd(&arrivals, 1u);
    workgroupBarrier();
    expect(before < atomicLoad(&arrivals));
}
