"""The cross-check's comparison rule (asyncshader/extra/gpu.py): integers exactly; floats within
``ulp`` units in the last place of their own type, or within ``atol``; NaN equals NaN. No GPU is
needed here: the rule is applied to arrays written by hand."""

from __future__ import annotations

import numpy as np
import pytest

from asyncshader.extra.gpu import _differs


def _f32_steps(x: float, k: int) -> np.float32:
    """``x`` moved ``k`` representable f32 values up."""
    v = np.float32(x)
    for _ in range(k):
        v = np.nextafter(v, np.float32(np.inf), dtype=np.float32)
    return v


def test_integers_must_be_equal_whatever_the_tolerance():
    a = np.array([1, 2, 3], np.uint32)
    b = np.array([1, 2, 4], np.uint32)
    assert _differs(a, b, ulp=100, atol=10.0).tolist() == [False, False, True]


def test_floats_within_ulp_agree_and_one_more_ulp_differs():
    a = np.array([1.0, 1.0, -2.5], np.float32)
    b = np.array([_f32_steps(1.0, 4), _f32_steps(1.0, 5), -2.5], np.float32)
    assert _differs(a, b, ulp=4).tolist() == [False, True, False]


def test_ulps_are_counted_across_zero():
    # the smallest subnormals either side of 0 are 2 representable values apart
    tiny = np.float32(1.4e-45)
    a, b = np.array([tiny], np.float32), np.array([-tiny], np.float32)
    assert _differs(a, b, ulp=2).tolist() == [False]
    assert _differs(a, b, ulp=1).tolist() == [True]


def test_atol_accepts_a_small_absolute_difference_that_is_many_ulp():
    # 1e-7 next to 3e-7: millions of ULP apart (small numbers), 2e-7 apart in absolute terms
    a = np.array([1e-7, 0.5], np.float32)
    b = np.array([3e-7, 0.5 + 3e-6], np.float32)
    assert _differs(a, b, ulp=4).tolist() == [True, True]
    assert _differs(a, b, ulp=4, atol=2.5e-7).tolist() == [False, True]
    assert _differs(a, b, ulp=4, atol=4e-6).tolist() == [False, False]


@pytest.mark.parametrize("atol", [0.0, 1e30])
def test_nan_equals_nan_and_nothing_else_whatever_atol(atol):
    nan, inf = np.float32("nan"), np.float32("inf")
    a = np.array([nan, nan, inf, inf], np.float32)
    b = np.array([nan, 1.0, inf, -inf], np.float32)
    assert _differs(a, b, ulp=4, atol=atol).tolist() == [False, True, False, True]


def test_f16_counts_its_own_ulps():
    a = np.array([1.0], np.float16)
    b = np.array([np.float16(1.0) + np.float16(2 ** -10) * 3], np.float16)  # 3 f16 ULP
    assert _differs(a, b, ulp=3).tolist() == [False]
    assert _differs(a, b, ulp=2).tolist() == [True]
