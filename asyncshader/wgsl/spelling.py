"""WGSL's names for asyncshader's built-in functions and back: asyncshader spells a WGSL
built-in in snake_case (``inverseSqrt`` is ``inverse_sqrt``), except where WGSL's camelCase
has capitals after digits (``pack4xI8`` is ``pack4xi8``, ``dot4I8Packed`` is
``dot4i8_packed``). The emitter writes the WGSL name of a Python call; the WGSL front-end finds
the Python function of a WGSL call; both read this one table."""

from __future__ import annotations

import re

#: the WGSL names that are not the camelCase of asyncshader's
_IRREGULAR = {"pack4xi8": "pack4xI8", "pack4xu8": "pack4xU8", "pack4xi8_clamp": "pack4xI8Clamp",
              "pack4xu8_clamp": "pack4xU8Clamp", "unpack4xi8": "unpack4xI8",
              "unpack4xu8": "unpack4xU8", "dot4i8_packed": "dot4I8Packed",
              "dot4u8_packed": "dot4U8Packed", "quantize_to_f16": "quantizeToF16"}
_REGULAR = {wgsl: python for python, wgsl in _IRREGULAR.items()}


def camel(name: str) -> str:
    """asyncshader's name of a built-in to WGSL's: ``inverse_sqrt`` -> ``inverseSqrt``."""
    if name in _IRREGULAR:
        return _IRREGULAR[name]
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def snake(wgsl_name: str) -> str:
    """WGSL's name of a built-in to asyncshader's: ``inverseSqrt`` -> ``inverse_sqrt``."""
    if wgsl_name in _REGULAR:
        return _REGULAR[wgsl_name]
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), wgsl_name)
