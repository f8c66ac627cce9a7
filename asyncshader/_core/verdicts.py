"""What a user's check function's return value means: the one reading shared by
:func:`~asyncshader.explore`, :func:`~asyncshader.shrink`, the command line's ``step`` and
``crosscheck(check=...)``.

A check raises (an ``assert``) or returns a verdict: ``False`` fails the run, ``True`` and
``None`` (a check that only asserts) pass. numpy's bools count as bools, so
``return result["out"][0] == 8`` (an ``np.bool_``) fails when it is ``np.False_``; testing
``verdict is False`` would let it pass. Any other value (``0``, a list, an array of
comparisons) is ambiguous, and is an error that names the check and says what to return.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import OptionError

__all__ = ["check_failed"]


def check_failed(verdict: Any, check: Any) -> bool:
    """Whether ``verdict``, what ``check(...)`` returned, fails the run: a false bool (Python's
    or numpy's) fails; a true one, or None, passes. Anything else raises
    :class:`~asyncshader.OptionError` (a ``TypeError``) naming ``check`` (and where it is
    defined) and what it should return instead."""
    if verdict is None:
        return False
    if isinstance(verdict, (bool, np.bool_)):
        return not verdict
    raise OptionError(f"{_name(check)} returned {_shown(verdict)}: a check returns True or "
                      "None (pass) or False (fail), or raises (an assert). " + _fix(verdict))


def _name(check: Any) -> str:
    fn = getattr(check, "func", check)  # (a functools.partial: the function it calls)
    name = getattr(fn, "__qualname__", None) or repr(check)
    code = getattr(fn, "__code__", None)
    where = f" ({code.co_filename}:{code.co_firstlineno})" if code is not None else ""
    return f"the check {name}{where}"


def _shown(value: Any) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} (a {type(value).__module__}.{type(value).__qualname__})".replace(
        "builtins.", "")


def _fix(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return ("Fix: return one bool, e.g. bool((...).all()) or np.array_equal(a, b), "
                "not an array of comparisons")
    return "Fix: return bool(...) of what you meant, or assert it"
