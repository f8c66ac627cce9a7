"""binary16 by hand, for the f16 tests: rounding an exact rational to binary16 (to nearest, ties
to even, or down/up), from the format's definition (11 significant bits, exponent at least -14,
subnormal spacing 2**-24, largest finite 65504). Integers and Fraction only: no numpy, so that
the tests' expected values never come from the float16 arithmetic they check."""

from __future__ import annotations

import math
from fractions import Fraction

MAX16 = 65504


def _ulp(a: Fraction) -> Fraction:
    """The spacing of binary16 values at the magnitude ``a`` > 0."""
    e = max(a.numerator.bit_length() - a.denominator.bit_length(), -14)
    while e > -14 and Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return Fraction(2) ** (e - 10)


def round_to_f16(x: Fraction) -> float:
    """``x`` rounded to the nearest binary16 value (ties to even); ±inf from 65520 on."""
    if x == 0:
        return 0.0
    sign = -1 if x < 0 else 1
    a = abs(x)
    ulp = _ulp(a)
    q, r = divmod(a, ulp)
    if r > ulp / 2 or (r == ulp / 2 and q % 2 == 1):
        q += 1
    value = q * ulp
    return sign * math.inf if value > MAX16 else sign * float(value)


def f16_neighbours(x: Fraction) -> set[float]:
    """The binary16 values next to ``x`` (below and above; ``x`` itself when it is one): the
    results within one ULP that a correctly rounded or once-more-rounded result can be. Past
    the range the largest finite value and infinity."""
    if x == 0:
        return {0.0}
    sign = -1 if x < 0 else 1
    a = abs(x)
    ulp = _ulp(a)
    q = a // ulp
    values = {q * ulp, (q + (1 if q * ulp != a else 0)) * ulp}
    return {sign * (math.inf if v > MAX16 else float(v)) for v in values}


def ulp16(x: Fraction) -> Fraction:
    """WGSL's ULP(x) for f16, taken as the spacing of binary16 values in the binade of |x| (the
    wider one where x is a power of two)."""
    return _ulp(abs(x)) if x else Fraction(2) ** -24


# ---------------------------------------------------------------- 113-bit references (mpmath)
def mp_exact(f, *qs: Fraction) -> Fraction:
    """``f`` (a function of mpmath numbers) at the rationals ``qs``, evaluated at 113 bits and
    returned as a Fraction; mpmath comes with the test extra (callers importorskip it)."""
    import mpmath

    with mpmath.workprec(113):
        sign, man, exp, _ = mpmath.mpf(f(*[mpmath.mpf(q.numerator) / q.denominator
                                          for q in qs]))._mpf_
    value = Fraction(int(man)) * Fraction(2) ** int(exp)
    return -value if sign else value
