"""Execution agreement: compute entry points of real public shaders (webgpu-samples, wgpu's
examples and tests, Dawn's samples, benchmarks and vk-gl-cts ports; tests/data/wgsl_real/ and
tests/data/ports/, sources and licenses in tests/data/README.md) run on lavapipe and through
``ash.load_wgsl`` with the same input bytes (tests/ports/wgsl_agreement.py) and leave the same
values in their writable buffers: integers exactly, floats within the WGSL accuracy bound each
case names (docs/wgsl-testing.md, "Execution agreement").

An entry point that ``load_wgsl`` refuses today is a strict xfail carrying the refusal: when
the code generator takes the construct, the test runs and must agree (then drop its entry
from REFUSED). Entry points whose results differ by design are in EXCLUDED with the reason."""

import pytest
from ports.wgsl_agreement import Case, differences, inputs, run_asyncshader, run_lavapipe

import asyncshader as ash

R = "wgsl_real/"
GLF = {"x_6": [0.0, 1.0]}  # (GraphicsFuzz's injectionSwitch: (0, 1) in every CTS run)
CASES = [
    Case(R + "dawn_samples_function.wgsl", "ep"),
    Case(R + "wgpu_examples_src_hello_compute_shader.wgsl", workgroups=(16,), ints=(0, 10_000)),
    Case(R + "wgpu_player_tests_data_zero-init-buffer-for-binding.wgsl", workgroups=(16,)),
    Case("ports/wgpu_hello_workgroups_shader.wgsl", workgroups=(16,), ints=(-100, 100)),
    Case("ports/webgpu-samples_visionTransformer_layerNorm.wgsl", workgroups=(2,),
         elements=64, values={"params": [2, 32, 1e-6]}, ulps=16),
    Case("ports/webgpu-samples_visionTransformer_attnSoftmax.wgsl", elements=100,
         values={"params": [5, 2, 1]}, ulps=16),
    Case("ports/webgpu-samples_visionTransformer_mlp.wgsl", "linear", elements=64,
         values={"params": [3, 5, 7]}, ulps=8, atol=2.0 ** -21),
    Case("ports/webgpu-samples_visionTransformer_mlp.wgsl", "linearGelu", elements=64,
         values={"params": [3, 5, 7]}, ulps=16, atol=2.0 ** -21),
    Case("ports/webgpu-samples_computeBoids_updateSprites.wgsl", workgroups=(1,),
         elements=64, ulps=16, atol=2.0 ** -21),
    Case("ports/webgpu-samples_gameOfLife_compute.wgsl", workgroups=(2, 2), elements=256,
         values={"size": [16, 16]}, ints=(0, 2)),
    Case(R + "dawn_benchmark_atan2-const-eval.wgsl", ulps=4096),  # (WGSL: atan2 4096 ULP)
    Case(R + "dawn_benchmark_cluster-lights.wgsl", "computeMain", ulps=16, atol=2.0 ** -21),
    Case(R + "dawn_benchmark_metaball-isosurface.wgsl", "computeMain", ulps=16,
         atol=2.0 ** -21),
    Case(R + "dawn_benchmark_uniformity-analysis-pointer-parameters.wgsl"),
    Case(R + "dawn_samples_compute_boids.wgsl", "comp_main", elements=8, ulps=16,
         atol=2.0 ** -21),
    Case(R + "dawn_vk-gl-cts_api_descriptor_set_descriptor_set_layout_binding_layout_binding_"
         "order_0.wgsl", ints=(-50, 50)),
    Case(R + "dawn_vk-gl-cts_binding_model_dynamic_offset_shader_reuse_differing_layout_"
         "compute_0.wgsl"),
    Case(R + "dawn_vk-gl-cts_graphicsfuzz_dead-barriers-in-loops_0-opt.wgsl", values=GLF),
    Case(R + "dawn_vk-gl-cts_graphicsfuzz_early-return-and-barrier_0.wgsl"),
    Case(R + "dawn_vk-gl-cts_graphicsfuzz_two-nested-for-loops-with-returns_0-opt.wgsl"),
    *(Case(R + f"dawn_vk-gl-cts_non_robust_buffer_access_unexecuted_oob_{which}_0-opt.wgsl")
      for which in ("overflow", "underflow")),
    Case(R + "dawn_vk-gl-cts_spirv_arraylength_array-stride-larger-than-element-size_1.wgsl"),
    *(Case(R + f"dawn_vk-gl-cts_spirv_signed_{name}.wgsl", elements=64,
           ints=(-2 ** 31, 2 ** 31 - 1), workgroups=(64,))
      for name in ("int_compare_uint_sgreaterthan_0", "int_compare_uint_sgreaterthanequal_0",
                   "int_compare_uint_slessthan_0", "int_compare_uint_slessthanequal_0",
                   "op_glsl_int_uclamp_0-opt", "op_glsl_uint_sabs_0-opt",
                   "op_glsl_uint_sclamp_0-opt", "op_glsl_uint_smax_0-opt",
                   "op_glsl_uint_smin_0-opt", "op_uint_sdiv_0-opt", "op_uint_snegate_0-opt")),
    Case(R + "webgpu-samples_bitonicSort_atomicToZero.wgsl", "atomicToZero"),
    Case(R + "webgpu-samples_deferredRendering_lightUpdate.wgsl", elements=64, ulps=16,
         atol=2.0 ** -21),
    Case(R + "wgpu_examples_src_boids_compute.wgsl", elements=64, ulps=16, atol=2.0 ** -21),
    Case(R + "wgpu_examples_src_timestamp_queries_shader.wgsl", "main_cs", workgroups=(16,),
         ints=(0, 2 ** 32 - 1)),
]

#: what load_wgsl refuses today, by case id: "not supported yet by load_wgsl: <this>"
REFUSED: dict[str, str] = {}  # (none since the generator took fixed-size storage arrays)

#: entry points of these files not run on both, and why
EXCLUDED = {
    "wgpu_examples_src_hello_synchronization_shaders::patient_main":
        "adds to a workgroup atomic that lavapipe does not zero (asyncshader zeroes workgroup "
        "memory as WGSL requires): lavapipe's counts start from what the memory held",
    "wgpu_examples_src_hello_synchronization_shaders::hasty_main":
        "racy by design: invocation 0 reads the workgroup counter without a barrier, so the "
        "value depends on the schedule (the example's point)",
    "wgpu_tests_tests_shader_zero_init_workgroup_mem::write":
        "stores only into workgroup memory (to dirty it for `read`): no buffer to compare",
    "wgpu_tests_tests_shader_zero_init_workgroup_mem::read":
        "reads workgroup memory that lavapipe does not zero (asyncshader zeroes it as WGSL "
        "requires); wgpu's own test runs `write` first to dirty it",
    "dawn_samples_compute_boids::comp_main (vertex, fragment)": "not compute entry points",
}


def _param(case: Case):
    marks = []
    if case.id in REFUSED:
        marks.append(pytest.mark.xfail(
            strict=True, raises=ash.ShaderCreationError,
            reason=f"not supported yet by load_wgsl: {REFUSED[case.id]}"))
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_a_real_shader_agrees_with_lavapipe_on_the_same_bytes(case, gpu_device):
    entry, raw = inputs(case, seed=0)
    ours = run_asyncshader(case, entry, raw)  # (a refusal raises here: the xfail)
    gpu = run_lavapipe(gpu_device, case, entry, raw)
    assert ours.keys() == gpu.keys()
    assert differences(case, entry, ours, gpu) == []
    # (a run that wrote nothing would agree trivially: some buffer must have changed)
    changed = [name for name, data in ours.items() if data != bytes(raw[name])]
    assert changed or case.id in WRITES_NOTHING, f"{case.id}: no buffer changed"


#: entry points that store nothing (Dawn's sample calls a function and drops its value; its
#: uniformity benchmark passes pointers to function variables and has no buffer)
WRITES_NOTHING = {"dawn_samples_function::ep",
                  "dawn_benchmark_uniformity-analysis-pointer-parameters::main"}


def test_every_refusal_and_exclusion_names_a_case():
    ids = {c.id for c in CASES}
    assert set(REFUSED) <= ids
    assert {k for k in EXCLUDED if "(" not in k} & ids == set()


def test_a_refused_case_is_refused_with_the_construct_it_names():
    """REFUSED is what load_wgsl says today, not a guess: a case whose refusal changed (the
    generator took the construct, or now stops earlier) fails here as well as in its own
    test."""
    for case in CASES:
        if case.id not in REFUSED:
            continue
        with pytest.raises(ash.ShaderCreationError) as err:
            ash.load_wgsl(case.text())
        assert f"not supported yet by load_wgsl: {REFUSED[case.id]}" in str(err.value), case.id
