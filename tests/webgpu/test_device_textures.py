"""Textures on asyncshader.webgpu: wgpu-py programs that upload texels (write_texture,
copy_buffer_to_texture), read them in a shader (textureLoad, textureSampleLevel through a
linear sampler), write a storage texture and read it back (copy_texture_to_buffer,
read_texture) give the bytes wgpu on lavapipe gives; WebGPU's texture mistakes raise the
exception class wgpu-py raises for the same program."""

import numpy as np
import pytest
import wgpu_texture_programs as programs

import asyncshader.webgpu as ours

TEXELS = np.random.default_rng(7).integers(0, 256, (5, 7, 4), dtype=np.uint8)
COORDS = np.array([[0.5, 0.5], [0.1, 0.3], [0.93, 0.77], [1.2, -0.4], [0.0, 0.0],
                   [0.25, 0.9]], np.float32)


def device():
    return ours.gpu.request_adapter_sync().request_device_sync()


def expected_load_store(texels):
    """LOAD_STORE's stores, derived with numpy: r + 2g + 3b + 5a + x."""
    t = texels.astype(np.uint32)
    return t[..., 0] + 2 * t[..., 1] + 3 * t[..., 2] + 5 * t[..., 3] + np.arange(t.shape[1])


def test_a_storage_texture_written_by_a_dispatch_reads_back_through_copy_and_read_texture(
        gpu_device):
    import wgpu

    copied, read = programs.load_store(ours, device(), TEXELS)
    assert copied.tolist() == expected_load_store(TEXELS).tolist()
    assert read.tolist() == copied.tolist()
    theirs = programs.load_store(wgpu, gpu_device, TEXELS)
    assert copied.tobytes() == theirs[0].tobytes() and read.tobytes() == theirs[1].tobytes()


def test_linear_sampling_of_a_copied_texture_agrees_with_lavapipe_within_2_over_256(
        gpu_device):
    import wgpu

    mine = programs.sample_level(ours, device(), TEXELS, COORDS)
    theirs = programs.sample_level(wgpu, gpu_device, TEXELS, COORDS)
    assert np.abs(mine - theirs).max() <= 2 / 256  # docs/textures.md: linear filtering
    # the centre of texel (3, 2) (u = 3.5/7, v = 2.5/5) is that texel, unfiltered
    assert np.allclose(mine[0], TEXELS[2, 3] / 255, atol=1e-6)


def test_texel_copies_keep_rows_images_and_origins():
    dev = device()
    tu = ours.TextureUsage
    tex = dev.create_texture(size=(3, 2, 2), format="r16uint", usage=tu.COPY_DST | tu.COPY_SRC)
    values = np.arange(12, dtype=np.uint16).reshape(2, 2, 3)
    dev.queue.write_texture({"texture": tex}, values, {"bytes_per_row": 6,
                                                        "rows_per_image": 2}, (3, 2, 2))
    assert tex._texture.levels[0].reshape(2, 2, 3).tolist() == values.tolist()
    part = dev.queue.read_texture({"texture": tex, "origin": (1, 1, 1)},
                                  {"bytes_per_row": 4}, (2, 1, 1))
    assert np.frombuffer(part, np.uint16).tolist() == [10, 11]


def both(gpu_device, mistake):
    """The exceptions ``mistake(wgpu, device)`` raises on lavapipe and here."""
    import wgpu

    raised = []
    for module, dev in ((wgpu, gpu_device), (ours, device())):
        with pytest.raises(Exception) as info:
            mistake(module, dev)
        raised.append(info.value)
    return raised


def _pipeline(wgpu, dev, code):
    return dev.create_compute_pipeline(layout="auto", compute={
        "module": dev.create_shader_module(code=code), "entry_point": "main"})


def _load_store_group(wgpu, dev, src_format, src_usage, dst_format, src_resource=None):
    tu = wgpu.TextureUsage
    pipeline = _pipeline(wgpu, dev, programs.LOAD_STORE)
    src = dev.create_texture(size=(4, 4, 1), format=src_format, usage=src_usage)
    dst = dev.create_texture(size=(4, 4, 1), format=dst_format, usage=tu.STORAGE_BINDING)
    dev.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": src_resource or src.create_view()},
        {"binding": 1, "resource": dst.create_view()}])


def m_rows_not_aligned_to_256(wgpu, dev):
    tex = dev.create_texture(size=(4, 4, 1), format="rgba8unorm",
                             usage=wgpu.TextureUsage.COPY_DST)
    buf = dev.create_buffer(size=4096, usage=wgpu.BufferUsage.COPY_SRC)
    dev.create_command_encoder().copy_buffer_to_texture(
        {"buffer": buf, "offset": 0, "bytes_per_row": 16, "rows_per_image": 4},
        {"texture": tex, "mip_level": 0, "origin": (0, 0, 0)}, (4, 4, 1))


def m_write_without_copy_dst(wgpu, dev):
    tex = dev.create_texture(size=(4, 4, 1), format="rgba8unorm",
                             usage=wgpu.TextureUsage.TEXTURE_BINDING)
    dev.queue.write_texture({"texture": tex}, bytes(64), {"bytes_per_row": 16}, (4, 4, 1))


def m_storage_usage_of_an_srgb_format(wgpu, dev):
    dev.create_texture(size=(4, 4, 1), format="rgba8unorm-srgb",
                       usage=wgpu.TextureUsage.STORAGE_BINDING)


def m_no_usage(wgpu, dev):
    dev.create_texture(size=(4, 4, 1), format="rgba8unorm", usage=0)


def m_copy_past_the_buffer(wgpu, dev):
    tex = dev.create_texture(size=(4, 4, 1), format="rgba8unorm",
                             usage=wgpu.TextureUsage.COPY_SRC)
    buf = dev.create_buffer(size=256 * 3, usage=wgpu.BufferUsage.COPY_DST)
    encoder = dev.create_command_encoder()
    encoder.copy_texture_to_buffer({"texture": tex}, {"buffer": buf, "offset": 0,
                                                      "bytes_per_row": 256,
                                                      "rows_per_image": 4}, (4, 4, 1))
    encoder.finish()


def m_bound_without_texture_binding(wgpu, dev):
    _load_store_group(wgpu, dev, "rgba8uint", wgpu.TextureUsage.COPY_DST, "r32uint")


def m_storage_texture_of_another_format(wgpu, dev):
    _load_store_group(wgpu, dev, "rgba8uint", wgpu.TextureUsage.TEXTURE_BINDING, "r32float")


def m_float_texture_for_a_u32_binding(wgpu, dev):
    _load_store_group(wgpu, dev, "rgba8unorm", wgpu.TextureUsage.TEXTURE_BINDING, "r32uint")


def m_sampler_for_a_texture(wgpu, dev):
    _load_store_group(wgpu, dev, "rgba8uint", wgpu.TextureUsage.TEXTURE_BINDING, "r32uint",
                      src_resource=dev.create_sampler())


def m_comparison_sampler_for_a_filtering_one(wgpu, dev):
    pipeline = _pipeline(wgpu, dev, programs.SAMPLE_LEVEL)
    tex = dev.create_texture(size=(4, 4, 1), format="rgba8unorm",
                             usage=wgpu.TextureUsage.TEXTURE_BINDING)
    buf = dev.create_buffer(size=64, usage=wgpu.BufferUsage.STORAGE)
    dev.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": tex.create_view()},
        {"binding": 1, "resource": dev.create_sampler(compare="less")},
        {"binding": 2, "resource": {"buffer": buf}}, {"binding": 3, "resource": {"buffer": buf}}])


def m_1d_texture_with_height(wgpu, dev):
    dev.create_texture(size=(4, 2, 1), format="rgba8unorm", usage=wgpu.TextureUsage.COPY_DST,
                       dimension="1d")


def m_more_mip_levels_than_the_chain(wgpu, dev):
    dev.create_texture(size=(4, 4, 1), format="rgba8unorm", usage=wgpu.TextureUsage.COPY_DST,
                       mip_level_count=4)


MISTAKES = [v for k, v in sorted(globals().items()) if k.startswith("m_")]


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m.__name__[2:])
def test_texture_mistakes_raise_what_wgpu_raises_on_lavapipe(gpu_device, mistake):
    theirs, mine = both(gpu_device, mistake)
    assert type(mine).__name__ == type(theirs).__name__
    if isinstance(theirs, ValueError):
        assert str(mine) == str(theirs)
    else:
        call = str(theirs).split("In ", 1)[1].split()[0]
        assert f"In {call}" in str(mine)


def _explicit_layout_pipeline(wgpu, dev, storage_format):
    stage = wgpu.ShaderStage.COMPUTE
    layout = dev.create_bind_group_layout(entries=[
        {"binding": 0, "visibility": stage, "texture": {"sample_type": "uint"}},
        {"binding": 1, "visibility": stage, "storage_texture": {
            "access": "write-only", "format": storage_format, "view_dimension": "2d"}}])
    pipeline = dev.create_compute_pipeline(
        layout=dev.create_pipeline_layout(bind_group_layouts=[layout]),
        compute={"module": dev.create_shader_module(code=programs.LOAD_STORE),
                 "entry_point": "main"})
    return layout, pipeline


def test_an_explicit_layout_with_texture_entries_runs_the_program():
    dev = device()
    tu = ours.TextureUsage
    layout, pipeline = _explicit_layout_pipeline(ours, dev, "r32uint")
    src = dev.create_texture(size=(2, 1, 1), format="rgba8uint",
                             usage=tu.TEXTURE_BINDING | tu.COPY_DST)
    dst = dev.create_texture(size=(2, 1, 1), format="r32uint",
                             usage=tu.STORAGE_BINDING | tu.COPY_SRC)
    dev.queue.write_texture({"texture": src}, bytes([1, 2, 3, 4, 10, 20, 30, 40]),
                            {"bytes_per_row": 8}, (2, 1, 1))
    group = dev.create_bind_group(layout=layout, entries=[
        {"binding": 0, "resource": src.create_view()},
        {"binding": 1, "resource": dst.create_view()}])
    encoder = dev.create_command_encoder()
    compute_pass = encoder.begin_compute_pass()
    compute_pass.set_pipeline(pipeline)
    compute_pass.set_bind_group(0, group)
    compute_pass.dispatch_workgroups(1)
    compute_pass.end()
    dev.queue.submit([encoder.finish()])
    out = dev.queue.read_texture({"texture": dst}, {"bytes_per_row": 8}, (2, 1, 1))
    # r + 2g + 3b + 5a + x: 1 + 4 + 9 + 20 + 0 and 10 + 40 + 90 + 200 + 1
    assert np.frombuffer(out, np.uint32).tolist() == [34, 341]


def test_an_explicit_layout_whose_storage_format_differs_from_the_shader_is_refused(
        gpu_device):
    theirs, mine = both(gpu_device, lambda wgpu, dev: _explicit_layout_pipeline(
        wgpu, dev, "r32float"))
    assert type(mine).__name__ == type(theirs).__name__ == "GPUValidationError"
    assert "In wgpuDeviceCreateComputePipeline" in str(mine)
    assert "In wgpuDeviceCreateComputePipeline" in str(theirs)


def test_a_default_view_of_a_layered_texture_is_2d_array_here_and_2d_on_wgpu_native(
        gpu_device):
    """WebGPU's default view dimension of a 2d texture with layers is "2d-array"; wgpu-native
    (wgpu-py 0.32) resolves it to "2d", so only lavapipe accepts it for a texture_2d."""
    import wgpu

    def bind(module, dev, dimension):
        tu = module.TextureUsage
        layered = dev.create_texture(size=(4, 4, 2), format="rgba8uint",
                                     usage=tu.TEXTURE_BINDING)
        _load_store_group(module, dev, "rgba8uint", tu.TEXTURE_BINDING, "r32uint",
                          src_resource=layered.create_view(dimension=dimension))

    bind(wgpu, gpu_device, None)
    with pytest.raises(ours.GPUValidationError, match="expects dimension = 2d, but given a "
                       "view with dimension = 2d-array"):
        bind(ours, device(), None)
    for module, dev in ((wgpu, gpu_device), (ours, device())):
        with pytest.raises(module.GPUValidationError):
            bind(module, dev, "2d-array")


def test_copies_of_a_mip_level_of_layers_with_row_and_image_strides_match_lavapipe(gpu_device):
    import wgpu

    mine = programs.layered_round_trip(ours, device())
    # layer 1 is the data's second image (100 + 6..11: rows 106 107 / 108 109), x = 1: 107, 109
    words = np.zeros(512, np.uint32)
    words[64], words[128] = 107, 109
    assert mine.tolist() == words.tolist()
    assert mine.tobytes() == programs.layered_round_trip(wgpu, gpu_device).tobytes()


def test_a_texture_to_texture_copy_is_refused_saying_how_to_copy():
    device = ours.gpu.request_adapter_sync().request_device_sync()
    usage = ours.TextureUsage.COPY_SRC | ours.TextureUsage.COPY_DST
    a = device.create_texture(size=(4, 4, 1), format="rgba8unorm", usage=usage)
    b = device.create_texture(size=(4, 4, 1), format="rgba8unorm", usage=usage)
    encoder = device.create_command_encoder()
    with pytest.raises(NotImplementedError, match="copy through a buffer"):
        encoder.copy_texture_to_texture({"texture": a}, {"texture": b}, (4, 4, 1))
