"""WebGPU's flags and enums as wgpu-py spells them (``wgpu.BufferUsage.STORAGE``,
``wgpu.BufferBindingType.read_only_storage``): flags are ints (or strings such as
``"STORAGE|COPY_SRC"``), enums are strings, each class iterable over its values. The compute
subset of WebGPU's IDL, with the values wgpu-py 0.32 gives them."""

from __future__ import annotations

import types
from typing import Any

__all__ = [
    "AutoLayoutMode", "BufferBindingType", "BufferMapState", "BufferUsage",
    "CompilationMessageType", "DeviceLostReason", "ErrorFilter", "FeatureName", "MapMode",
    "PipelineErrorReason", "PowerPreference", "ShaderStage", "flag_value",
]


class _EnumType(type):
    """The class of an enum or a flags class: its public attributes are its values."""

    def __new__(mcs, name: str, bases: tuple, dct: dict) -> Any:
        members = {k: v for k, v in dct.items() if not k.startswith("_")}
        cls = super().__new__(mcs, name, bases, dct)
        cls.__fields__ = tuple(members)
        cls.__members__ = types.MappingProxyType(members)
        return cls

    def __iter__(cls) -> Any:
        return iter(cls.__members__.values())

    def __getitem__(cls, key: str) -> Any:
        return cls.__members__[key]

    def __repr__(cls) -> str:
        kind = "flags" if cls.__members__ and isinstance(
            next(iter(cls.__members__.values())), int) else "enum"
        return f"<asyncshader.webgpu.{cls.__name__} {kind}: {', '.join(cls.__fields__)}>"


class _Enum(metaclass=_EnumType):
    def __init__(self) -> None:
        raise RuntimeError("Cannot instantiate an enum.")


class BufferUsage(_Enum):
    """GPUBufferUsage's flags."""
    MAP_READ = 1
    MAP_WRITE = 2
    COPY_SRC = 4
    COPY_DST = 8
    INDEX = 16
    VERTEX = 32
    UNIFORM = 64
    STORAGE = 128
    INDIRECT = 256
    QUERY_RESOLVE = 512


class MapMode(_Enum):
    """GPUMapMode's flags."""
    READ = 1
    WRITE = 2


class ShaderStage(_Enum):
    """GPUShaderStage's flags."""
    VERTEX = 1
    FRAGMENT = 2
    COMPUTE = 4


class PowerPreference(_Enum):
    low_power = "low-power"
    high_performance = "high-performance"


class FeatureName(_Enum):
    """The features this device can grant (WebGPU's GPUFeatureName)."""
    shader_f16 = "shader-f16"
    subgroups = "subgroups"
    timestamp_query = "timestamp-query"


class BufferMapState(_Enum):
    unmapped = "unmapped"
    pending = "pending"
    mapped = "mapped"


class BufferBindingType(_Enum):
    uniform = "uniform"
    storage = "storage"
    read_only_storage = "read-only-storage"


class CompilationMessageType(_Enum):
    error = "error"
    warning = "warning"
    info = "info"


class PipelineErrorReason(_Enum):
    validation = "validation"
    internal = "internal"


class AutoLayoutMode(_Enum):
    auto = "auto"


class DeviceLostReason(_Enum):
    unknown = "unknown"
    destroyed = "destroyed"


class ErrorFilter(_Enum):
    validation = "validation"
    out_of_memory = "out-of-memory"
    internal = "internal"


def flag_value(flags: type, value: int | str) -> int:
    """A flags argument as its int: ``wgpu.BufferUsage.STORAGE | ...`` as given, or a string
    such as ``"STORAGE|COPY_SRC"`` (wgpu-py accepts both)."""
    if isinstance(value, str):
        parts = [p.strip() for p in value.split("|") if p.strip()]
        if not parts:
            raise ValueError(f"Invalid flag value: {value}")
        total = 0
        for p in parts:
            if p.startswith("_") or p.upper() not in flags.__members__:
                raise ValueError(f"Invalid flag value for {flags.__name__}: '{p}'")
            total |= flags.__members__[p.upper()]
        return total
    return int(value)
