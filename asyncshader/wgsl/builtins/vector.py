"""WGSL's vector built-ins (§17.5): ``dot``, ``cross``, ``length``, ``distance``,
``normalize``, ``faceForward``, ``reflect`` and ``refract``.

Float results are evaluated in float64 from the exact f32 components (products of two f32 are
exact there) and rounded once to f32, at least as accurate as WGSL's f32 formulas, which WGSL
allows. Integer ``dot`` wraps modulo 2**32, as every i32/u32 operation does.
"""

from __future__ import annotations

import math
from operator import attrgetter, mul, sub
from typing import Any

import numpy as np

from ..types import Vec
from ._overloads import Signature, builtin, doc, out_of_domain, to_f32

__all__ = ["cross", "distance", "dot", "face_forward", "length", "normalize", "reflect",
           "refract"]

_ONE = np.float32(1.0)
_NAN = float("nan")
_F64 = "evaluated in float64 and rounded once to f32 (WGSL: {})"


_COMPS = {n: attrgetter(*"xyzw"[:n]) for n in (2, 3, 4)}


def _floats(v: Vec) -> list[float]:
    return list(map(float, _COMPS[v.size](v)))


#: the float64 dot product of two vectors of 2, 3, 4 components (written out: the fastest)
_DOT64 = {
    2: lambda a, b: float(a.x) * float(b.x) + float(a.y) * float(b.y),
    3: lambda a, b: float(a.x) * float(b.x) + float(a.y) * float(b.y) + float(a.z) * float(b.z),
    4: lambda a, b: (float(a.x) * float(b.x) + float(a.y) * float(b.y)
                     + float(a.z) * float(b.z) + float(a.w) * float(b.w)),
}


def _dot64(a: Vec, b: Vec) -> float:
    return _DOT64[a.size](a, b)


def _dot_f(a: Vec, b: Vec) -> np.float32:
    if a.size == 4:   # the common case, written out: one call less
        return to_f32(float(a.x) * float(b.x) + float(a.y) * float(b.y)
                      + float(a.z) * float(b.z) + float(a.w) * float(b.w))
    return to_f32(_DOT64[a.size](a, b))


def _dot_int(a: Vec, b: Vec) -> Any:
    get = _COMPS[a.size]
    return a.scalar(sum(map(mul, map(int, get(a)), map(int, get(b)))))   # wraps mod 2**32


def _length(e: Any) -> np.float32:
    if isinstance(e, Vec):
        return to_f32(math.sqrt(_DOT64[e.size](e, e)))
    return abs(e)


def _distance(a: Any, b: Any) -> np.float32:
    if isinstance(a, Vec):
        d = list(map(sub, _floats(a), _floats(b)))
        return to_f32(math.sqrt(sum(map(mul, d, d), 0.0)))
    return to_f32(abs(float(a) - float(b)))


_NORMALIZE = ("normalize(e) with the zero vector",
              "the zero vector has no direction, so WGSL does not define the result; "
              "asyncshader returns NaN components (0 / 0). Check the length first, e.g. "
              "select(fallback, normalize(v), length(v) > 0.0).")


def _normalize(e: Vec) -> Vec:
    comps = _floats(e)
    n = math.sqrt(sum(map(mul, comps, comps), 0.0))
    if n == 0.0:
        return out_of_domain(*_NORMALIZE, tuple(comps), type(e)._make(*[_ONE * _NAN] * e.size))
    return type(e)._make(*[_ONE * (c / n) for c in comps])   # |c / n| <= 1: no overflow


def _cross(a: Vec, b: Vec) -> Vec:
    ax, ay, az = float(a.x), float(a.y), float(a.z)
    bx, by, bz = float(b.x), float(b.y), float(b.z)
    return type(a)._make(to_f32(ay * bz - az * by), to_f32(az * bx - ax * bz),
                         to_f32(ax * by - ay * bx))


def _face_forward(e1: Vec, e2: Vec, e3: Vec) -> Vec:
    return e1 if _dot64(e2, e3) < 0.0 else -e1


def _reflect(e1: Vec, e2: Vec) -> Vec:
    k = 2.0 * _dot64(e2, e1)
    return type(e1)._make(*[to_f32(i - k * n) for i, n in zip(_floats(e1), _floats(e2))])


def _refract(e1: Vec, e2: Vec, eta: Any) -> Vec:
    z = float(eta)
    d = _dot64(e2, e1)
    k = 1.0 - z * z * (1.0 - d * d)
    if k < 0.0:
        return type(e1)._make(*[np.float32(0.0)] * e1.size)
    m = z * d + math.sqrt(k)
    return type(e1)._make(*[to_f32(z * i - m * n) for i, n in zip(_floats(e1), _floats(e2))])


def _make(wgsl: str, name: str, roles: tuple[str, ...], kinds: str, shapes: str,
          kernels: dict[str, Any], params: tuple[str, ...], what: str, accuracy: str,
          notes: str = "", returns: str = "T") -> Any:
    sig = Signature(wgsl, name, roles, kinds, shapes)
    return builtin(sig, kernels, doc(sig, params, what, accuracy, notes, returns), params,
                   componentwise=False)


dot = _make("dot", "dot", ("T", "T"), "fhiu", "v", {"f": _dot_f, "i": _dot_int, "u": _dot_int},
            ("e1", "e2"), "the dot product, the sum of e1[i] * e2[i].",
            _F64.format("inherited from the sum of the products, in any order"),
            "Integer vectors: the sum wraps modulo 2**32 (WGSL does not say; this is what its "
            "integer + and * do).", returns="S")
cross = _make("cross", "cross", ("T", "T"), "fh", "3", {"f": _cross}, ("a", "b"),
              "the cross product of two vec3<f32>.",
              _F64.format("inherited from a[i] * b[j] - a[j] * b[i]"))
length = _make("length", "length", ("T",), "fh", "sv", {"f": _length}, ("e",),
               "the length of e: |e| for a scalar, sqrt(dot(e, e)) for a vector.",
               _F64.format("inherited from sqrt(dot(e, e))"),
               "The sum is taken in float64, so it does not overflow where the f32 formula "
               "would (length(vec2f(1e30, 1e30)) is 1.4142135e30).", returns="S")
distance = _make("distance", "distance", ("T", "T"), "fh", "sv", {"f": _distance},
                 ("e1", "e2"), "the distance between e1 and e2, length(e1 - e2).",
                 _F64.format("inherited from length(e1 - e2)"), returns="S")
normalize = _make("normalize", "normalize", ("T",), "fh", "v", {"f": _normalize}, ("e",),
                  "the unit vector in the direction of e, e / length(e).",
                  _F64.format("inherited from e / length(e)"),
                  "The zero vector is outside WGSL's domain (indeterminate): asyncshader "
                  "returns NaN components and warns (WGSLIndeterminateWarning).")
face_forward = _make("faceForward", "face_forward", ("T", "T", "T"), "fh", "v",
                     {"f": _face_forward}, ("e1", "e2", "e3"),
                     "e1 if dot(e2, e3) < 0, else -e1.",
                     "exact (the sign of the float64 dot product, which is the sign of the "
                     "exact one)", "dot(e2, e3) == 0 gives -e1.")
reflect = _make("reflect", "reflect", ("T", "T"), "fh", "v", {"f": _reflect}, ("e1", "e2"),
                "the reflection of the incident direction e1 at the surface normal e2: "
                "e1 - 2 * dot(e2, e1) * e2.",
                _F64.format("inherited from e1 - 2 * dot(e2, e1) * e2"))
refract = _make("refract", "refract", ("T", "T", "S"), "fh", "v", {"f": _refract},
                ("e1", "e2", "e3"),
                "the refraction of the incident direction e1 at the normal e2 with the ratio "
                "of indices of refraction e3: with k = 1 - e3**2 * (1 - dot(e2, e1)**2), the "
                "zero vector if k < 0, else e3 * e1 - (e3 * dot(e2, e1) + sqrt(k)) * e2.",
                _F64.format("inherited from that formula"),
                "e1 and e2 should be normalized (WGSL's formula assumes it). e3 is a scalar "
                "f32.")
