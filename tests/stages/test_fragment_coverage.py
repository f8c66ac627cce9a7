"""``run_fragments(coverage=mask)``: the pixels a triangle covers. The other pixels of a quad
holding a covered pixel run as helper invocations: they take part in derivatives and in
textureSample's implicit level of detail, read their own pixel's inputs and write nothing;
quads without a covered pixel do not run. Checked by hand and against lavapipe drawing a real
triangle (its coverage read back from the picture)."""

import numpy as np
import pytest

import asyncshader as ash
from asyncshader import f32, u32, vec4f, vec4u


@ash.fragment
async def square_slope(*, position: vec4f):
    return await ash.dpdx(position.x * position.x)


def test_helpers_around_covered_pixels_take_part_in_derivatives():
    cov = np.zeros((4, 4), bool)
    cov[0, 0] = cov[3, 3] = True
    r = ash.run_fragments(square_slope, 4, 4, coverage=cov)
    assert r.mask.tolist() == cov.tolist()
    # coarse dpdx of x^2 across a quad's top row: 1.5^2 - 0.5^2 = 2 and 3.5^2 - 2.5^2 = 6,
    # each from a covered pixel and a helper
    assert r.output[0, 0] == 2.0 and r.output[3, 3] == 6.0
    assert (r.output[~cov] == 0).all()


@ash.fragment
async def count_runs(hits: ash.Storage[u32], *, position: vec4f):
    i = u32(position.y) * 4 + u32(position.x)
    hits[i] = hits[i] + 1
    return f32(1.0)


def test_helpers_write_nothing_and_uncovered_quads_do_not_run():
    cov = np.zeros((4, 4), bool)
    cov[1, 1] = True  # one pixel: its quad's three others are helpers
    hits = np.zeros(16, np.uint32)
    r = ash.run_fragments(count_runs, 4, 4, coverage=cov, hits=hits)
    assert hits.reshape(4, 4).tolist() == cov.astype(np.uint32).tolist()
    assert r.mask.tolist() == cov.tolist()
    assert r.counters.invocations == 4  # one quad of four ran


def test_an_odd_sized_grid_pads_the_coverage_and_a_bad_mask_is_refused():
    cov = np.ones((3, 3), bool)
    r = ash.run_fragments(square_slope, 3, 3, coverage=cov)
    assert r.mask.all() and r.output[2, 2] == 6.0  # the padding helper at x = 3 takes part
    with pytest.raises(ash.BindingError, match=r"takes a \(3, 3\) bool array"):
        ash.run_fragments(square_slope, 3, 3, coverage=np.ones((3, 3)))


@ash.fragment
async def subgroup_count(*, position: vec4f, subgroup_invocation_id: u32):
    before = u32(0)
    if position.x < 1:  # (diverges: column 0 only)
        before = await ash.subgroup_add(u32(1))
    every = await ash.subgroup_add(u32(1))
    other = await ash.subgroup_shuffle(subgroup_invocation_id, u32(3))
    return vec4u(before, every, other, subgroup_invocation_id)


def test_a_subgroup_holds_the_quads_that_run_and_absent_quads_are_no_divergence():
    cov = np.zeros((2, 8), bool)  # 4 quads, subgroup_size=8: subgroups of quads 0-1, 2-3
    cov[0, 0] = cov[1, 7] = True  # quad 0 runs, quad 1 not; quad 2 not, quad 3 runs
    with pytest.warns(ash.DataRaceWarning, match="holds no invocation"):
        r = ash.run_fragments(subgroup_count, 8, 2, coverage=cov, subgroup_size=8)
    # (0, 0): lanes 0 and 2 (column 0) add 2; the 4 lanes of quad 0 add 4; lane 3 is there
    assert r.output[0, 0].tolist() == [2, 4, 3, 0]
    # (7, 1): quad 3 is lanes 4-7 of its subgroup; lane 3 holds no invocation
    assert r.output[1, 7].tolist() == [0, 4, 0, 7]
    kinds = sorted((type(f).__name__, f.group) for f in r.findings)
    assert kinds == [("IndeterminateValue", "subgroup 1 of the fragment dispatch"),
                     ("NonUniformCollective", "subgroup 0 of the fragment dispatch")]
    diverged = next(f for f in r.findings if type(f).__name__ == "NonUniformCollective")
    assert diverged.active == [0, 2] and diverged.inactive == [1, 3]  # (4-7: absent)
    shuffled = next(f for f in r.findings if type(f).__name__ == "IndeterminateValue")
    assert shuffled.read == 3 and "no covered pixel" in shuffled.why


@ash.fragment
async def last_writer(cell: ash.Storage[u32], *, position: vec4f):
    cell[0] = u32(position.y) * 8 + u32(position.x)  # (a race: the schedule picks the winner)
    return f32(1.0)


def test_a_trace_holds_the_coverage_and_its_replay_runs_with_it():
    cov = np.zeros((4, 8), bool)
    cov[0, 1] = cov[2, 2] = cov[3, 7] = True
    cell = np.zeros(1, np.uint32)
    r = ash.run_fragments(last_writer, 8, 4, coverage=cov, cell=cell, sanitize="off",
                          schedule=ash.Random(5))
    assert r.trace.dispatch["coverage"] == "40002001"  # the mask's bits, a byte a row of 8 here
    for trace in (r.trace, ash.Trace.from_string(r.trace.to_string())):
        again = np.zeros(1, np.uint32)
        replay = ash.run_fragments(last_writer, 8, 4, cell=again, sanitize="off",
                                   schedule=trace)  # (no coverage=: the trace's)
        assert replay.mask.tolist() == cov.tolist()
        assert replay.counters.invocations == 12 and again[0] == cell[0]
    same = ash.run_fragments(last_writer, 8, 4, coverage=cov, cell=again, sanitize="off",
                             schedule=r.trace)
    assert same.mask.tolist() == cov.tolist()


def test_a_replay_with_another_coverage_is_refused_saying_where_it_differs():
    cov = np.zeros((4, 4), bool)
    cov[0, 0] = True
    r = ash.run_fragments(square_slope, 4, 4, coverage=cov, schedule=ash.Random(1))
    other = cov.copy()
    other[3, 2] = True
    with pytest.raises(ash.ReplayMismatchError, match=r"1 of 4x4 pixels covered; this dispatch "
                       r"covers 2, and pixel \(2, 3\) is covered here\)"):
        ash.run_fragments(square_slope, 4, 4, coverage=other, schedule=r.trace)
    whole = ash.run_fragments(square_slope, 4, 4, schedule=ash.Random(1))
    with pytest.raises(ash.ReplayMismatchError, match="recorded without coverage="):
        ash.run_fragments(square_slope, 4, 4, coverage=cov, schedule=whole.trace)


R32_WRITE = ash.StorageTexture2D["r32float", "write"]


@ash.fragment
async def stamp(img: R32_WRITE, *, position: vec4f):
    if position.x > 6.0 and position.y < 2.0:
        ash.discard()
    ash.texture_store(img, ash.vec2i(ash.i32(position.x), ash.i32(position.y)),
                      vec4f(position.x * 10.0 + position.y))
    return f32(1.0)


def test_helpers_store_nothing_into_a_storage_texture_and_are_reported():
    y, x = np.mgrid[0:8, 0:8]
    image = ash.Texture([np.full((8, 8, 1), -1.0, np.float32)], "r32float")
    r = ash.run_fragments(stamp, 8, 8, img=image, coverage=x > y, sanitize="report")
    kept = (x > y) & ~((x + 0.5 > 6) & (y + 0.5 < 2))  # covered and not discarded
    want = np.where(kept, (x + 0.5) * 10 + y + 0.5, -1)
    assert image.levels[0][..., 0].tolist() == want.tolist()
    helpers = [f for f in r.findings if isinstance(f, ash.HelperSideEffect)]
    assert len(helpers) == 1 and helpers[0].memory == "img"
    assert helpers[0].count == int(((x <= y) & (x // 2 >= y // 2)).sum()
                                   + (~(x <= y) & ~kept).sum())


TRIANGLE = """\
struct V { @builtin(position) p: vec4f, @location(0) uv: vec2f, }
@vertex fn vs(@builtin(vertex_index) i: u32) -> V {
  var corners = array(vec2f(-1.0, -1.0), vec2f(0.9, -1.0), vec2f(-1.0, 0.7));
  let ndc = corners[i];
  let c = vec2f(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
  return V(vec4f(ndc, 0.0, 1.0), c * vec2f(3.0, 1.5));
}
"""

TEXTURED = """\
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  return vec4f(textureSample(t, s, uv).rgb, 1.0);
}
"""


def test_implicit_lod_at_a_triangles_edge_agrees_with_lavapipe(gpu_device):
    import wgpu

    from asyncshader.extra.textures import bind_groups, read_back

    rng = np.random.default_rng(9)
    tex = ash.Texture([rng.integers(0, 256, (16 >> k, 16 >> k, 4), dtype=np.uint8)
                       for k in range(5)])
    smp = ash.Sampler(mag_filter="linear", min_filter="linear", mipmap_filter="linear",
                      address_mode_u="repeat", address_mode_v="repeat")
    width = height = 8
    dev = gpu_device
    vs = dev.create_shader_module(code=TRIANGLE)
    fs = dev.create_shader_module(code=TEXTURED)
    pipeline = dev.create_render_pipeline(
        layout="auto", vertex={"module": vs, "entry_point": "vs"},
        fragment={"module": fs, "entry_point": "fs", "targets": [{"format": "rgba32float"}]},
        primitive={"topology": wgpu.PrimitiveTopology.triangle_list})
    (_, group), = bind_groups(dev, pipeline, {0: {0: tex, 1: smp}})[0]
    target = dev.create_texture(size=(width, height, 1), format="rgba32float",
                                usage=wgpu.TextureUsage.RENDER_ATTACHMENT |
                                wgpu.TextureUsage.COPY_SRC)
    enc = dev.create_command_encoder()
    p = enc.begin_render_pass(color_attachments=[{
        "view": target.create_view(), "load_op": wgpu.LoadOp.clear,
        "store_op": wgpu.StoreOp.store, "clear_value": (0, 0, 0, 0)}])
    p.set_pipeline(pipeline)
    p.set_bind_group(0, group)
    p.draw(3)
    p.end()
    dev.queue.submit([enc.finish()])
    picture = ash.Texture([np.zeros((height, width, 4), np.float32)], "rgba32float")
    read_back(dev, target, picture)
    theirs = picture.levels[0]
    covered = theirs[..., 3] == 1.0  # (alpha 1 where a fragment was written)
    assert 10 < covered.sum() < 50  # a triangle, not the whole picture
    x = (np.arange(width, dtype=np.float32) + 0.5) / width
    y = (np.arange(height, dtype=np.float32) + 0.5) / height
    uv = np.stack(np.meshgrid(x * 3.0, y * 1.5), -1).astype(np.float32)
    module = ash.load_wgsl(TEXTURED)
    ours = ash.run_fragments(module["fs"], width, height, coverage=covered, uv=uv, t=tex,
                             s=smp)
    assert ours.mask.tolist() == covered.tolist()
    assert np.abs(ours.output[covered] - theirs[covered]).max() <= 2 / 256 + 1 / 16
