"""Texel formats (WebGPU §26.1 "Texture Formats", WGSL §14.3 "Texel Formats"): what the host array
of a texture holds, how a shader reads it (decode) and how a storage texture writes it (encode).

A texture's host array holds the values a GPU upload of its bytes gives, channel by channel in
memory order: ``uint8`` for the 8-bit formats (``bgra8unorm``'s channels are b, g, r, a, as its
bytes are), ``uint16``/``int16`` for 16-bit integer and normalized formats, ``float16`` for
``*16float``, ``float32``/``uint32``/``int32`` for the 32-bit ones. Two packed formats hold one
channel per component: ``rgb10a2unorm``/``rgb10a2uint`` a ``uint16`` array of (r, g, b, a) with
10, 10, 10 and 2 bits, ``rg11b10ufloat`` a ``float32`` array of (r, g, b) values (read only).

Decoding follows Vulkan's conversions, which WebGPU adopts: unorm ``x / (2**n - 1)`` and snorm
``max(x / (2**(n-1) - 1), -1)`` (so -128 reads as -1), computed in double and rounded once to
f32, which is the correctly rounded quotient; sRGB applies the standard EOTF to the unorm value
(``c / 12.92`` up to 0.04045, else ``((c + 0.055) / 1.055) ** 2.4``) to the colour channels, not
alpha. Encoding (``texture_store``) clamps to the format's range, rounds to nearest (ties away
from zero) and for sRGB applies the inverse curve first; NaN stores as 0. Integer formats keep
the value's low bits (``r8uint`` stores ``300`` as 44), as Vulkan's integer conversion does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_UNORM, _SNORM, _UINT, _SINT, _FLOAT, _DEPTH = "unorm", "snorm", "uint", "sint", "float", "depth"


@dataclass(frozen=True)
class TexelFormat:
    """One texel format: ``name`` as WebGPU spells it, ``channels`` the host array's last axis,
    ``dtype`` its element type, ``kind`` (unorm, snorm, uint, sint, float, depth), ``bits`` per
    channel (a tuple for packed formats), ``srgb``, ``bgra`` (channels stored b, g, r, a),
    ``storage`` (WGSL allows it for storage textures) and ``writable`` (has an encoder)."""

    name: str
    channels: int
    dtype: np.dtype
    kind: str
    bits: tuple[int, ...]
    srgb: bool = False
    bgra: bool = False
    storage: bool = False
    writable: bool = True

    @property
    def sample_type(self) -> str:
        """WGSL's sampled type of the texture: ``f32``, ``u32`` or ``i32``."""
        return {_UINT: "u32", _SINT: "i32"}.get(self.kind, "f32")

    @property
    def is_depth(self) -> bool:
        return self.kind == _DEPTH

    def decode(self, texels: np.ndarray) -> np.ndarray:
        """The values a shader reads from ``texels`` (host values, last axis channels): float32
        (or uint32/int32 for integer formats) in r, g, b, a order, ``channels`` of them."""
        t = texels[..., [2, 1, 0, 3]] if self.bgra else texels
        if self.kind in (_UINT, _SINT):
            return t.astype(np.uint32 if self.kind == _UINT else np.int32)
        if self.kind in (_FLOAT,) or (self.kind == _DEPTH and self.dtype == np.float32):
            return t.astype(np.float32)
        scale = np.array([(1 << b) - 1 for b in self.bits], np.float64)
        if self.kind == _SNORM:
            scale = np.array([(1 << (b - 1)) - 1 for b in self.bits], np.float64)
            out = np.maximum(t.astype(np.float64) / scale, -1.0)
        else:
            out = t.astype(np.float64) / scale
        if self.srgb:
            rgb = out[..., :3]
            out[..., :3] = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
        return out.astype(np.float32)

    def encode(self, values: np.ndarray) -> np.ndarray:
        """The host values a ``texture_store`` of ``values`` (r, g, b, a order, ``channels`` of
        them) writes."""
        if not self.writable:
            raise TypeError(f"texel format {self.name!r} cannot be written by a shader")
        v = np.asarray(values)
        if self.kind in (_UINT, _SINT):
            out = v.astype(np.int64).astype(self.dtype)  # low bits, as Vulkan's conversion
        elif self.kind == _FLOAT or (self.kind == _DEPTH and self.dtype == np.float32):
            out = v.astype(np.float32).astype(self.dtype)
        else:
            f = np.nan_to_num(v.astype(np.float64), nan=0.0)
            if self.kind == _SNORM:
                scale = np.array([(1 << (b - 1)) - 1 for b in self.bits], np.float64)
                f = np.clip(f, -1.0, 1.0)
            else:
                scale = np.array([(1 << b) - 1 for b in self.bits], np.float64)
                f = np.clip(f, 0.0, 1.0)
                if self.srgb:
                    rgb = f[..., :3]
                    f[..., :3] = np.where(rgb <= 0.0031308, rgb * 12.92,
                                          1.055 * rgb ** (1 / 2.4) - 0.055)
            x = f * scale
            out = (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(self.dtype)
        return out[..., [2, 1, 0, 3]] if self.bgra else out


def _fmt(name: str, channels: int, dtype: type, kind: str, bits: int | tuple[int, ...],
         **kw: bool) -> TexelFormat:
    b = bits if isinstance(bits, tuple) else (bits,) * channels
    return TexelFormat(name, channels, np.dtype(dtype), kind, b, **kw)


def _family() -> dict[str, TexelFormat]:
    out: dict[str, TexelFormat] = {}
    prefixes = {1: "r", 2: "rg", 4: "rgba"}
    for n, p in prefixes.items():
        out[f"{p}8unorm"] = _fmt(f"{p}8unorm", n, np.uint8, _UNORM, 8)
        out[f"{p}8snorm"] = _fmt(f"{p}8snorm", n, np.int8, _SNORM, 8)
        out[f"{p}8uint"] = _fmt(f"{p}8uint", n, np.uint8, _UINT, 8)
        out[f"{p}8sint"] = _fmt(f"{p}8sint", n, np.int8, _SINT, 8)
        out[f"{p}16unorm"] = _fmt(f"{p}16unorm", n, np.uint16, _UNORM, 16)
        out[f"{p}16snorm"] = _fmt(f"{p}16snorm", n, np.int16, _SNORM, 16)
        out[f"{p}16uint"] = _fmt(f"{p}16uint", n, np.uint16, _UINT, 16)
        out[f"{p}16sint"] = _fmt(f"{p}16sint", n, np.int16, _SINT, 16)
        out[f"{p}16float"] = _fmt(f"{p}16float", n, np.float16, _FLOAT, 16)
        out[f"{p}32uint"] = _fmt(f"{p}32uint", n, np.uint32, _UINT, 32)
        out[f"{p}32sint"] = _fmt(f"{p}32sint", n, np.int32, _SINT, 32)
        out[f"{p}32float"] = _fmt(f"{p}32float", n, np.float32, _FLOAT, 32)
    out["rgba8unorm-srgb"] = _fmt("rgba8unorm-srgb", 4, np.uint8, _UNORM, 8, srgb=True)
    out["bgra8unorm"] = _fmt("bgra8unorm", 4, np.uint8, _UNORM, 8, bgra=True)
    out["bgra8unorm-srgb"] = _fmt("bgra8unorm-srgb", 4, np.uint8, _UNORM, 8, srgb=True,
                                  bgra=True)
    out["rgb10a2unorm"] = _fmt("rgb10a2unorm", 4, np.uint16, _UNORM, (10, 10, 10, 2))
    out["rgb10a2uint"] = _fmt("rgb10a2uint", 4, np.uint16, _UINT, (10, 10, 10, 2))
    out["rg11b10ufloat"] = _fmt("rg11b10ufloat", 3, np.float32, _FLOAT, (11, 11, 10),
                                writable=False)
    out["depth32float"] = _fmt("depth32float", 1, np.float32, _DEPTH, 32)
    out["depth16unorm"] = _fmt("depth16unorm", 1, np.uint16, _DEPTH, 16)
    return out


#: every texel format asyncshader knows, by WebGPU name
FORMATS: dict[str, TexelFormat] = _family()

#: WGSL's storage texel formats (§14.3 and the bgra8unorm-storage and
#: texture-formats-tier1 features)
STORAGE_FORMATS = (
    "rgba8unorm", "rgba8snorm", "rgba8uint", "rgba8sint", "rgba16uint", "rgba16sint",
    "rgba16float", "r32uint", "r32sint", "r32float", "rg32uint", "rg32sint", "rg32float",
    "rgba32uint", "rgba32sint", "rgba32float", "bgra8unorm",
    "r8unorm", "r8snorm", "r8uint", "r8sint", "rg8unorm", "rg8snorm", "rg8uint", "rg8sint",
    "r16unorm", "r16snorm", "r16uint", "r16sint", "r16float", "rg16unorm", "rg16snorm",
    "rg16uint", "rg16sint", "rg16float", "rgba16unorm", "rgba16snorm", "rgb10a2uint",
    "rgb10a2unorm")


def texel_format(name: str) -> TexelFormat:
    """The format named ``name``; a ValueError listing close names otherwise."""
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        import difflib
        close = difflib.get_close_matches(str(name), list(FORMATS), n=3)
        hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"unknown texel format {name!r}.{hint} Known formats: "
                         f"{', '.join(FORMATS)}") from None
