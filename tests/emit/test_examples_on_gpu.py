"""The examples' kernels as WGSL: each one emits and a real WGSL front-end (naga, in wgpu, on
Mesa's lavapipe) accepts it, or it fails with the documented error; the cross-check runs the
CPU and the GPU side by side and finds them equal (docs/to-gpu.md). Expected values here are
never asyncshader's: the cross-check compares with lavapipe, and the reductions with numpy."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import load_example, quad_downsample_model

import asyncshader as ash
from asyncshader.emit import WGSLEmitError, emit
from asyncshader.extra.gpu import CrosscheckError, crosscheck, crosscheck_fragments, validate


def _bindings():
    """The bindings each example's kernels run with (as the examples dispatch them)."""
    rng = np.random.default_rng(5)
    n = 300
    ring = load_example("fwidth_ring.py")
    mip = load_example("mip_level.py")
    particles = load_example("particles.py")
    quad = load_example("quad_downsample.py")
    return {
        ("reduce.py", "block_sum"): dict(workgroups=2, inp=rng.random(n, np.float32),
                                         partial=np.zeros(2, np.float32), n=n),
        ("prefix_sum.py", "scan_blocks"): dict(
            workgroups=5, inp=rng.integers(0, 9, n).astype(np.float32),
            out=np.zeros(n, np.float32), block_sums=np.zeros(5, np.float32), n=n),
        ("prefix_sum.py", "add_block_offsets"): dict(
            workgroups=5, out=rng.integers(0, 9, n).astype(np.float32),
            scanned_sums=np.arange(5, dtype=np.float32), n=n),
        ("matmul.py", "matmul_tiled"): dict(
            workgroups=(2, 3), a=rng.random(20 * 28, np.float32),
            b=rng.random(28 * 12, np.float32), c=np.zeros(240, np.float32), m=20, n=12, k=28),
        ("racy_counter.py", "atomic_increment"): dict(
            workgroups=1, counter=np.zeros(1, np.uint32), tickets=np.zeros(1, np.uint32),
            seen=np.zeros(8, np.uint32), order=np.zeros(8, np.uint32)),
        ("racy_counter.py", "racy_increment"): dict(
            workgroups=1, counter=np.zeros(1, np.uint32), tickets=np.zeros(1, np.uint32),
            seen=np.zeros(8, np.uint32), order=np.zeros(8, np.uint32)),
        ("lost_update.py", "lost_update"): dict(
            workgroups=1, total=np.zeros(2, np.uint32), lock=np.zeros(1, np.uint32),
            work=np.zeros(2, np.uint32)),
        ("subgroup_reduce.py", "workgroup_sum"): dict(
            workgroups=3, inp=rng.integers(0, 1000, 192).astype(np.uint32),
            out=np.zeros(3, np.uint32)),
        ("stream_compaction.py", "compact"): dict(
            workgroups=2, inp=rng.integers(0, 100, 128).astype(np.uint32),
            out=np.zeros(128, np.uint32), count=np.zeros(1, np.uint32)),
        ("subgroup_size_bug.py", "buggy_sum"): load_example("subgroup_size_bug.py").setup(),
        ("fwidth_ring.py", "ring"): dict(width=21, height=19, uv=ring.uv_grid(21, 19)),
        ("mip_level.py", "mip_level"): dict(width=8, height=8,
                                            uv=mip.floor_uv),
        ("particles.py", "step"): dict(workgroups=2, p=particles.start(),
                                       u=particles.params()),
        ("median_filter.py", "median3x3"): dict(
            workgroups=(3, 2), image=rng.random(24 * 16, np.float32),
            out=np.zeros(24 * 16, np.float32), kept=np.zeros(24 * 16, np.float32)),
        # odd both ways (helpers in the last column and row); texels k/256: exact sums of four
        ("boids.py", "update"): load_example("boids.py").setup(),
        ("quad_downsample.py", "downsample"): quad.setup(
            21, 15, (rng.integers(0, 257, (15, 21)) / 256).astype(np.float32)),
    }


#: the examples' kernels that WGSL cannot express as written, and why (the error names it):
#: none since mip_level indexes its palette as a const array
UNSUPPORTED: dict[tuple[str, str], str] = {}


def _kernels():
    out = []
    for name in ("reduce.py", "prefix_sum.py", "matmul.py", "racy_counter.py",
                 "lost_update.py", "fwidth_ring.py", "mip_level.py", "subgroup_reduce.py",
                 "stream_compaction.py", "subgroup_size_bug.py", "particles.py",
                 "quad_downsample.py", "median_filter.py", "boids.py"):
        module = load_example(name)
        out += [(name, k) for k, v in vars(module).items()
                if isinstance(v, (ash.ComputeKernel, ash.FragmentShader))]
    return out


def _shader_args(kernel, given):
    names = set(kernel.params)  # (and a compute kernel's module-scope bindings, by name)
    names |= set(kernel.scan()[3]) if kernel.stage == "compute" else set()
    return {k: v for k, v in given.items() if k in names}


@pytest.mark.parametrize("example,kernel", _kernels())
def test_every_example_kernel_emits_wgsl_that_naga_accepts_or_fails_as_documented(
        example, kernel, wgsl_device):
    shader = getattr(load_example(example), kernel)
    given = _bindings().get((example, kernel), {})
    if (example, kernel) in UNSUPPORTED:
        with pytest.raises(WGSLEmitError, match=UNSUPPORTED[(example, kernel)]) as info:
            emit(shader, **_shader_args(shader, given))
        assert f"{example}:" in str(info.value) and "Fix:" in str(info.value)
        return
    code = emit(shader, **_shader_args(shader, given))
    validate(code.source, wgsl_device)
    entry = kernel + "_" if kernel in ("step",) else kernel  # (WGSL's built-in step())
    assert code.entry == entry and f"fn {entry}(" in code.source


def test_the_particle_struct_buffer_agrees_with_lavapipe_member_by_member(gpu_device):
    particles = load_example("particles.py")
    p, u = particles.start(), particles.params()
    # u.spin * d is a matrix product: the CPU rounds it once, WGSL allows dot's accuracy, and
    # velocity + swirl * pull + gravity cancels, so velocities differ by a few ULP (9 measured)
    report = crosscheck(particles.step, 2, p=p, u=u, device=gpu_device, ulp=32)
    assert "struct Particle {" in report.wgsl and "let swirl = u.spin * d;" in report.wgsl
    assert "var<uniform> u: Params;" in report.wgsl
    assert sorted(report.counts) == ["p.age", "p.color", "p.mass", "p.position", "p.velocity"]
    assert report.ok and report.gpu["p"]["age"].tolist() == [1] * particles.N
    assert report.gpu["p"]["color"].tolist() == p["color"].tolist()  # (not written: intact)
    assert not np.array_equal(report.gpu["p"]["position"], p["position"])


def test_the_reduction_is_bit_identical_on_lavapipe_and_equals_numpy(gpu_device):
    reduce = load_example("reduce.py")
    values = np.random.default_rng(1).random(1000, np.float32)
    report = crosscheck(reduce.block_sum, 4, inp=values, partial=np.zeros(4, np.float32),
                        n=1000, ulp=0, device=gpu_device)
    assert report.ok and report.counts == {"inp": 0, "partial": 0}
    # the tree sums each block in the same order on both sides; numpy in float64 as a bound
    blocks = np.pad(values, (0, 24)).reshape(4, 256).astype(np.float64).sum(1)
    np.testing.assert_allclose(report.gpu["partial"], blocks, rtol=1e-5)


def test_the_subgroup_reduction_agrees_with_lavapipe_and_numpy(wgsl_device):
    """subgroupAdd per subgroup, then one sum per workgroup: the same totals whatever the
    subgroup size (32 on the CPU by default, 8 on lavapipe)."""
    sub = load_example("subgroup_reduce.py")
    given = _bindings()[("subgroup_reduce.py", "workgroup_sum")]
    report = crosscheck(sub.workgroup_sum, **given, device=wgsl_device)
    assert report.ok
    assert report.gpu["out"].tolist() == given["inp"].reshape(3, 64).sum(1).tolist()


def test_stream_compaction_keeps_the_same_values_on_lavapipe(wgsl_device):
    """Where each kept value lands depends on the order of the atomics: out is judged as a
    set, count exactly."""
    comp = load_example("stream_compaction.py")
    given = _bindings()[("stream_compaction.py", "compact")]
    odd = sorted(int(v) for v in given["inp"] if v % 2)
    report = crosscheck(comp.compact, **given, ignore=("out",), device=wgsl_device,
                        check=lambda cpu, gpu: sorted(gpu["out"][:len(odd)]) == odd)
    assert report.ok and report.gpu["count"][0] == len(odd)


def test_the_tiled_matmul_agrees_with_lavapipe_and_numpy(gpu_device):
    matmul = load_example("matmul.py")
    rng = np.random.default_rng(3)
    a, b = rng.random((20, 28), np.float32), rng.random((28, 12), np.float32)
    report = crosscheck(matmul.matmul_tiled, (2, 3), a=a.ravel(), b=b.ravel(),
                        c=np.zeros(240, np.float32), m=20, n=12, k=28, device=gpu_device)
    assert report.ok
    np.testing.assert_allclose(report.gpu["c"].reshape(20, 12), a @ b, rtol=1e-5)


def test_the_ping_pong_scan_agrees_with_lavapipe_and_numpy(gpu_device):
    """scan_blocks swaps which workgroup array is source and target (src, dst = dst, src):
    in WGSL a u32 chooses the array."""
    prefix = load_example("prefix_sum.py")
    given = _bindings()[("prefix_sum.py", "scan_blocks")]
    report = crosscheck(prefix.scan_blocks, **given, ulp=0, device=gpu_device)
    assert report.ok
    blocks = np.pad(given["inp"], (0, 20)).reshape(5, 64)
    np.testing.assert_array_equal(report.gpu["out"], np.cumsum(blocks, 1).ravel()[:300])
    np.testing.assert_array_equal(report.gpu["block_sums"], blocks.sum(1))


def test_the_block_offsets_of_the_scan_agree_with_lavapipe(gpu_device):
    prefix = load_example("prefix_sum.py")
    given = _bindings()[("prefix_sum.py", "add_block_offsets")]
    report = crosscheck(prefix.add_block_offsets, **given, device=gpu_device)
    assert report.ok
    expected = given["out"] + np.repeat(np.r_[0, given["scanned_sums"][:-1]], 64)[:300]
    np.testing.assert_array_equal(report.gpu["out"], expected)


def test_atomics_agree_where_the_schedule_does_not_decide(gpu_device):
    """counter and tickets end at 8 on both sides; seen (which value each invocation got)
    depends on the order of the atomics: left out, then judged by a check of its own."""
    racy = load_example("racy_counter.py")
    given = _bindings()[("racy_counter.py", "atomic_increment")]
    report = crosscheck(racy.atomic_increment, ignore=("seen", "order"),
                        check=lambda cpu, gpu: sorted(gpu["seen"]) == list(range(8)),
                        device=gpu_device, **given)
    assert report.ok and report.gpu["counter"][0] == 8 and report.gpu["tickets"][0] == 8


def test_the_anti_aliased_ring_agrees_with_lavapipe_pixel_for_pixel(gpu_device):
    """Within WGSL's accuracy, which is absolute here: d = |length(uv - c) - R| - T has an
    error of about 4e-7 (length inherits sqrt(dot), sqrt inherits 1 / inverseSqrt: 4.5 ULP of
    values up to 0.71, plus the subtractions), so w = fwidth(d), four such values subtracted,
    is within 1.6e-6, and aa = 1 - smoothstep(-w, w, d) divides d's and w's errors by 2w
    (at least 2/21 of uv at 21 pixels) and multiplies them by at most 1.5: 3.2e-5. In ULPs of
    small results such differences are thousands (measured: 24 for w, 2,048 for aa)."""
    ring = load_example("fwidth_ring.py")
    given = _bindings()[("fwidth_ring.py", "ring")]
    report = crosscheck_fragments(ring.ring, **given, atol=3.2e-5, device=gpu_device)
    assert report.ok and set(report.gpu) == {"output.aa", "output.hard", "output.w"}
    np.testing.assert_allclose(report.gpu["output.w"], report.cpu["output.w"], rtol=0,
                               atol=1.6e-6)
    # the hard edge, a step of d at 0, is the same at every pixel: no pixel centre of this grid
    # lies within d's error of the ring's edges
    np.testing.assert_array_equal(report.gpu["output.hard"], report.cpu["output.hard"])
    with pytest.raises(CrosscheckError, match="output.aa: [0-9]+ of 399 elements differ"):
        crosscheck_fragments(ring.ring, **given, device=gpu_device)  # (ULPs alone: too strict)
    assert report.gpu["output.w"].shape == (19, 21)
    # fwidth of the distance is about one pixel in uv units, on the GPU too
    w = report.gpu["output.w"]
    assert 0.5 / 21 < np.median(w) < 2.0 / 19


def test_the_mip_levels_agree_with_lavapipe_pixel_for_pixel(gpu_device):
    """examples/mip_level.py on lavapipe, over a strip of the floor from the horizon to the
    nearest row: every level 0..8, an odd width and height (helper invocations pad the last
    quads), the palette a const array indexed by the level at run time."""
    mip = load_example("mip_level.py")
    width, height = 11, mip.HEIGHT
    report = crosscheck_fragments(mip.mip_level, width, height, uv=mip.floor_uv,
                                  device=gpu_device, raise_on_difference=False)
    assert "const PALETTE = array<vec3f, 9>(" in report.wgsl
    assert "let rgb = PALETTE[level] / 255.0 * shade;" in report.wgsl
    cpu_lod, gpu_lod = report.cpu["output.lod"], report.gpu["output.lod"].reshape(height, width)
    # WGSL's bounds (docs/builtins.md): log2 is 3 ULP (2^-21 absolute for rho in [0.5, 2],
    # where the LOD is near 0 and a ULP count means nothing); rho = length(...) inherits
    # sqrt(dot(d, d)), about 5 ULP relative, 2 * 2^-21 in its log2; the CPU's own roundings;
    # rounded up to 8 * 2^-21 = 3.8e-6 (measured: 2^-21)
    bound = 8 * 2.0**-21
    assert np.abs(gpu_lod - cpu_lod).max() <= bound
    # so a level may differ only where the LOD is within the bound of an integer; the uv the
    # shader sees, differenced as fine derivatives in float64, keep 4e-4 away from integers
    # (the CPU agrees with this model to 3e-7), so every level must agree, and does
    uv = np.array([[tuple(mip.floor_uv(x, y)) for x in range(width + 1)]
                   for y in range(height + 1)], np.float64) * mip.TEXTURE
    y, x = np.indices((height, width))
    ddx, ddy = uv[y, (x & ~1) + 1] - uv[y, x & ~1], uv[(y & ~1) + 1, x] - uv[y & ~1, x]
    raw = np.log2(np.maximum(np.linalg.norm(ddx, axis=-1), np.linalg.norm(ddy, axis=-1)))
    assert np.abs(np.clip(raw, 0, mip.LEVELS - 1) - cpu_lod).max() < 1e-6
    assert np.abs(raw - np.round(raw)).min() > 100 * bound
    assert report.counts["output.level"] == 0
    level = report.gpu["output.level"].reshape(height, width)
    assert set(np.unique(level)) == set(range(mip.LEVELS))
    # toward the horizon (up the image) the level never decreases, from 0 to the last level
    assert np.all(np.diff(level, axis=0) <= 0)
    assert np.all(level[0] == mip.LEVELS - 1) and np.all(level[-1] == 0)
    # lavapipe's dpdx is the fine one: its levels split some quads, as the CPU's fine ones do
    coarse = ash.run_fragments(mip.mip_level, width, height, uv=mip.floor_uv).output["level"]
    assert np.any(coarse != level)
    # colour = PALETTE[level] / 255 * shade: the division 2.5 ULP, the product 0.5, and the
    # shade's 0.25 * lod, so 2^-20 (16 * 2^-24) from the LOD's bound; colours are below 1
    colour = report.gpu["output.colour"].reshape(height, width, 4)
    assert np.abs(colour - report.cpu["output.colour"]).max() <= 20 * 2.0**-24
    np.testing.assert_array_equal(colour[..., 3], 1)


def test_the_quad_downsample_agrees_with_lavapipe_and_numpy_bit_for_bit(gpu_device):
    """quadSwapX/Y, quadBroadcast and quadSwapDiagonal in a fragment shader, helpers included:
    21 x 15 pixels, so the last column and row of quads are padded with helpers, whose texels
    (the image extended linearly, read from the harness's texture) the shader replaces by
    its neighbours' (clamp to the edge). Every sum is exact, so ulp=0, and numpy's 2x2 mean
    of the edge-clamped image is the expected value on the GPU too."""
    quad = load_example("quad_downsample.py")
    given = _bindings()[("quad_downsample.py", "downsample")]
    report = crosscheck_fragments(quad.downsample, **given, ulp=0, device=gpu_device)
    assert report.ok and set(report.gpu) == {"half", "output.average", "output.nearest",
                                             "output.edge"}
    for op in ("quadSwapX(", "quadSwapY(", "quadBroadcast(t, 0u)", "quadSwapDiagonal("):
        assert op in report.wgsl, op
    model = quad_downsample_model(given["texel"])
    np.testing.assert_array_equal(report.gpu["half"].reshape(8, 11), model["half"])
    for key in ("average", "nearest", "edge"):
        np.testing.assert_array_equal(report.gpu[f"output.{key}"], model[key], err_msg=key)
    # the clamp did the work: with the helpers' own (extended) texels the edge would differ
    extended = np.pad(given["texel"].astype(np.float64), ((0, 1), (0, 1)), mode="reflect",
                      reflect_type="odd").reshape(8, 2, 11, 2).mean(axis=(1, 3))
    assert not np.array_equal(extended[:, -1], model["half"][:, -1])
    assert not np.array_equal(extended[-1], model["half"][-1])


def test_the_quad_downsample_of_the_test_card_agrees_with_lavapipe(gpu_device):
    """The example's own image and size (111 x 79): the zone plate, and stripes one pixel wide
    up to the right edge, where the helpers' extended texels are 2 * 0 - 1 = -1."""
    quad = load_example("quad_downsample.py")
    given = quad.setup()
    report = crosscheck_fragments(quad.downsample, **given, ulp=0, device=gpu_device)
    assert report.ok
    model = quad_downsample_model(given["texel"])
    np.testing.assert_array_equal(report.gpu["half"].reshape(40, 56), model["half"])
    x0, y0, x1, y1 = quad.STRIPES
    assert np.all(report.gpu["output.average"][y0:y1, x0:x1 - 1] == 0.5)   # grey ...
    assert np.all(report.gpu["output.nearest"][y0:y1, x0:x1 - 1] == 0)     # ... and black


def test_a_difference_names_the_element_and_the_invocation_that_wrote_it(gpu_device,
                                                                         monkeypatch):
    from asyncshader.extra import gpu as gpu_module

    @ash.compute(workgroup_size=4)
    async def tenths(out: ash.Storage, *, local_invocation_index: ash.u32):
        out[local_invocation_index] = ash.f32(local_invocation_index) * ash.f32(0.1)

    report = crosscheck(tenths, 1, out=np.zeros(4, np.float32), ulp=0, device=gpu_device)
    assert report.ok  # f32 products are correctly rounded on both sides
    real = gpu_module._run_compute

    def one_wrong(*args):  # a GPU result with one element 5 ULP off
        results = real(*args)
        results["out"][2] = np.nextafter(results["out"][2], np.float32(9), dtype=np.float32)
        for _ in range(4):
            results["out"][2] = np.nextafter(results["out"][2], np.float32(9),
                                             dtype=np.float32)
        return results

    monkeypatch.setattr(gpu_module, "_run_compute", one_wrong)
    assert crosscheck(tenths, 1, out=np.zeros(4, np.float32), ulp=5, device=gpu_device).ok
    with pytest.raises(CrosscheckError) as info:
        crosscheck(tenths, 1, out=np.zeros(4, np.float32), ulp=4, device=gpu_device)
    [d] = info.value.report.differences["out"]
    assert d.index == 2 and d.cpu == pytest.approx(0.2) and "local_invocation_index=2" in d.writer
    assert "out: 1 of 4 elements differ" in str(info.value)


def test_a_racy_kernel_differs_and_the_report_names_the_writer(gpu_device):
    """lost_update's outcome depends on the schedule: the CPU's in-order run and lavapipe's
    agree on `work` only where the schedule does not matter; the difference is reported
    with the invocation that wrote the element on the CPU."""
    lost = load_example("lost_update.py")
    given = _bindings()[("lost_update.py", "lost_update")]
    report = crosscheck(lost.lost_update, **given, raise_on_difference=False,
                        device=gpu_device)
    for diffs in report.differences.values():
        for d in diffs:
            assert d.writer is None or "local_invocation_index" in d.writer


def test_the_median_filter_with_its_local_arrays_agrees_with_lavapipe(gpu_device):
    median = load_example("median_filter.py")
    given = _bindings()[("median_filter.py", "median3x3")]
    report = crosscheck(median.median3x3, given.pop("workgroups"), ulp=0, device=gpu_device,
                        **given)
    assert "var window = array<f32, 9>();" in report.wgsl and "let before = window;" in \
        report.wgsl
    image = given["image"].reshape(16, 24)
    assert report.gpu["out"].reshape(16, 24).tolist() == median.numpy_median(image).tolist()
    assert report.gpu["kept"].tolist() == given["image"].tolist()


def test_boids_with_module_scope_bindings_agree_with_lavapipe_and_numpy(gpu_device):
    """examples/boids.py: helpers use module-scope bindings by name; one step on lavapipe equals
    the CPU's (default tolerance) and the example's numpy model of the rules."""
    boids = load_example("boids.py")
    given = boids.setup()
    report = crosscheck(boids.update, given.pop("workgroups"), device=gpu_device, **given)
    expected = boids.numpy_step(boids.start(), boids.sim_params())
    for member in ("pos", "vel"):
        assert np.allclose(report.gpu["boids_out"][member], expected[member], rtol=0, atol=1e-6)
    assert "@group(0) @binding(1) var<storage, read> boids_in: array<Boid>;" in report.wgsl
