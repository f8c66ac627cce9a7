"""Pictures: writing what a fragment shader computed to a PNG (needs the ``images`` extra,
Pillow)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def save_png(image: np.ndarray, path: str | Path) -> Path | None:
    """Writes an 8-bit RGB (height, width, 3) or grey (height, width) array to ``path`` as PNG.
    Returns the path, or None (writing nothing) when Pillow is not installed:
    ``pip install 'asyncshader[images]'``."""
    try:
        from PIL import Image
    except ImportError:
        return None
    array = np.asarray(image)
    if array.dtype != np.uint8:
        raise TypeError(f"save_png() takes uint8 pixels, got {array.dtype}: scale and convert, "
                        "e.g. np.round(img * 255).astype(np.uint8)")
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] != 3):
        raise ValueError(f"save_png() takes (height, width) or (height, width, 3), got "
                         f"{array.shape}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(array, "RGB" if array.ndim == 3 else "L").save(path, optimize=True)
    return path
