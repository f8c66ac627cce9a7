"""``get_default_device``: one device per process, as wgpu-py's."""

from __future__ import annotations

from typing import Any

_DEFAULT: list[Any] = []


def get_default_device() -> Any:
    """The process's default device (made on the first call, with default options)."""
    if not _DEFAULT:
        from ..adapter import GPU
        _DEFAULT.append(GPU().request_adapter_sync().request_device_sync())
    return _DEFAULT[0]
