"""Texel formats decode as Vulkan/WebGPU convert (values derived by hand here, not by the code
under test) and encode back with clamping and round-to-nearest."""

from fractions import Fraction

import numpy as np
import pytest

from asyncshader.wgsl.textures.formats import FORMATS, STORAGE_FORMATS, texel_format


def test_unorm8_reads_x_over_255_correctly_rounded():
    got = texel_format("r8unorm").decode(np.arange(256, dtype=np.uint8)[:, None])[:, 0]
    for x in range(256):
        exact = Fraction(x, 255)
        f = Fraction(float(got[x]))
        # the f32 neighbours of the result are no closer to x/255
        up = Fraction(float(np.nextafter(got[x], np.float32(2))))
        down = Fraction(float(np.nextafter(got[x], np.float32(-2))))
        assert abs(f - exact) <= abs(up - exact) and abs(f - exact) <= abs(down - exact)
    assert got[0] == 0 and got[255] == 1


def test_snorm8_clamps_minus_128_to_minus_one():
    got = texel_format("r8snorm").decode(np.array([[-128], [-127], [0], [127], [64]], np.int8))
    assert got[:, 0].tolist() == [-1.0, -1.0, 0.0, 1.0, np.float32(64 / 127)]


def test_srgb_decodes_colour_with_the_standard_curve_and_leaves_alpha_linear():
    t = np.array([[10, 128, 255, 128]], np.uint8)
    got = texel_format("rgba8unorm-srgb").decode(t)[0]
    assert got[0] == np.float32(10 / 255 / 12.92)          # below 0.04045: linear part
    assert got[1] == np.float32(((128 / 255 + 0.055) / 1.055) ** 2.4)
    assert got[2] == 1.0 and got[3] == np.float32(128 / 255)


def test_bgra8_channels_are_stored_in_byte_order():
    got = texel_format("bgra8unorm").decode(np.array([[255, 0, 51, 255]], np.uint8))[0]
    assert got.tolist() == [np.float32(0.2), 0.0, 1.0, 1.0]          # r = byte 2, b = byte 0


def test_packed_and_depth_formats():
    assert texel_format("rgb10a2unorm").decode(np.array([[1023, 0, 341, 1]], np.uint16))[
        0].tolist() == [1.0, 0.0, np.float32(341 / 1023), np.float32(1 / 3)]
    assert texel_format("depth16unorm").decode(np.array([[65535]], np.uint16))[0, 0] == 1.0
    assert texel_format("rgba16float").decode(np.array([[0.5, 2, -1, 1]], np.float16))[
        0].dtype == np.float32
    assert texel_format("r32sint").decode(np.array([[-5]], np.int32))[0, 0] == -5


def test_encode_clamps_rounds_to_nearest_and_maps_nan_to_zero():
    enc = texel_format("rgba8unorm").encode(np.array([0.5, -3.0, 2.0, np.nan], np.float32))
    assert enc.tolist() == [128, 0, 255, 0]                          # 127.5 rounds away
    assert texel_format("rgba8snorm").encode(np.array([-1.5, -0.5, 0.5, 1.0])).tolist() == [
        -127, -64, 64, 127]
    assert texel_format("r8uint").encode(np.array([300])).tolist() == [44]   # low bits
    srgb = texel_format("rgba8unorm-srgb")
    for x in (0, 1, 20, 128, 200, 255):   # decode then encode gives the texel back
        v = srgb.decode(np.array([[x, x, x, x]], np.uint8))
        assert srgb.encode(v)[0].tolist() == [x] * 4


def test_every_storage_format_is_known_and_writable():
    for name in STORAGE_FORMATS:
        assert FORMATS[name].writable, name
    assert "rg11b10ufloat" in FORMATS and not FORMATS["rg11b10ufloat"].writable


def test_unknown_format_names_close_matches():
    with pytest.raises(ValueError, match="rgba8unorm"):
        texel_format("rgba8_unorm")
