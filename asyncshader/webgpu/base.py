"""What every WebGPU object has: a label and the device that made it."""

from __future__ import annotations

import itertools
from typing import Any

_UIDS = itertools.count(1)


class GPUObjectBase:
    """WebGPU's GPUObjectBase: ``label`` (a name for messages) and the owning device."""

    def __init__(self, label: str, device: Any) -> None:
        self._label, self._device, self._uid = label or "", device, next(_UIDS)

    @property
    def label(self) -> str:
        """The object's label (empty when none was given)."""
        return self._label

    @property
    def uid(self) -> int:
        """A number unique to this object in the process."""
        return self._uid

    def _name(self) -> str:
        """How messages name it: its class and label, as wgpu-native does."""
        return f"{type(self).__name__.removeprefix('GPU')} with '{self._label}' label"

    def __repr__(self) -> str:
        label = f" {self._label!r}" if self._label else ""
        return f"<asyncshader.webgpu.{type(self).__name__}{label} ({self._uid})>"


def as_bytes(data: Any) -> memoryview:
    """``data`` (anything with the buffer protocol: bytes, numpy arrays, memoryviews, ctypes
    arrays) as a flat byte view, as wgpu-py reads it."""
    view = memoryview(data)
    return view if view.ndim == 1 and view.format == "B" else view.cast("B")


#: the keys of the descriptor dicts this device reads (WebGPU's dictionaries, by wgpu-py's
#: names)
STRUCT_KEYS = {
    "ProgrammableStage": {"module", "entry_point", "constants"},
    "BindGroupLayoutEntry": {"binding", "visibility", "buffer", "sampler", "texture",
                             "storage_texture", "external_texture"},
    "BufferBindingLayout": {"type", "has_dynamic_offset", "min_binding_size"},
    "BindGroupEntry": {"binding", "resource"},
    "BufferBinding": {"buffer", "offset", "size"},
}


def check_struct(name: str, d: Any) -> None:
    """A descriptor dict with a key WebGPU's dictionary ``name`` lacks is a ValueError (a
    misspelt key would otherwise be ignored), as wgpu-py checks it."""
    if not isinstance(d, dict):
        raise TypeError(f"Expecting {name} or dict, but got {d!r}")
    invalid = set(d).difference(STRUCT_KEYS[name])
    if invalid:
        raise ValueError(f"Invalid keys in {name}: {invalid}")
