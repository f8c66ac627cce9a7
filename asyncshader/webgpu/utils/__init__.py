"""wgpu-py's ``wgpu.utils`` for asyncshader's device: ``get_default_device`` and
``compute_with_buffers``."""

from .compute import compute_with_buffers
from .device import get_default_device

__all__ = ["compute_with_buffers", "get_default_device"]
