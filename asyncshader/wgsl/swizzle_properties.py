"""A vector's swizzles and rgba aliases (``v.zyx``, ``v.rgb``, ``v.a``) as properties of its
class. Properties, not a ``__getattr__``: a class with ``__getattr__`` reads every attribute
through CPython's slower hook, its slots (``v.x``) included (docs/performance.md)."""

from __future__ import annotations

import itertools
import operator
from typing import Any

__all__ = ["swizzle_properties"]

#: every swizzle name made so far: its property (one set for the vectors of every kind)
_PROPERTIES: dict[str, property] = {}


def swizzle_properties(size: int) -> dict[str, property]:
    """The swizzles and rgba aliases of a vector of ``size`` components, as properties, by
    name (all but ``x y z w``, the slots). A swizzle of several components makes a vector of
    the reading class's kind, found in its ``_sized`` (the classes of that kind by size)."""
    out: dict[str, property] = {}
    for letters in ("xyzw", "rgba"):
        for k in range(1, 5):
            for picks in itertools.product(range(size), repeat=k):
                name = "".join(letters[i] for i in picks)
                if name not in _PROPERTIES:
                    get = operator.attrgetter(*("xyzw"[i] for i in picks))
                    _PROPERTIES[name] = property(get if k == 1 else _several(get, k))
                if letters == "rgba" or k > 1:
                    out[name] = _PROPERTIES[name]
    return out


def _several(get: Any, k: int) -> Any:
    def swizzle(self: Any) -> Any:
        return self._sized[k]._make(*get(self))
    return swizzle
