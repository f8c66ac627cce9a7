"""Checking the options of the public entry points, at the API boundary.

Every check names the option, the value given and the form the option takes, and raises
:class:`~asyncshader.OptionError` (a ``DispatchError``, ``ValueError`` and ``TypeError``) before
anything runs. Nothing is guessed: a ``str``, a ``bool`` or a ``float`` is not an int here
(``workgroup_size="64"`` would otherwise iterate as (6, 4), and ``True`` count as 1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Set
from typing import Any

import numpy as np

from ..errors import OptionError

__all__ = ["check_bool", "check_callable", "check_choice", "check_instances", "check_int",
           "check_names", "check_number", "check_size3", "is_int", "option_error"]


def is_int(value: Any) -> bool:
    """A Python or numpy integer, not a bool (``True`` is an ``int`` to Python, not to us)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def shown(value: Any) -> str:
    """The value as a message shows it: its repr (clipped), and its type where the repr alone
    could mislead (``'64'`` is a str, ``True`` a bool, ``64.0`` a float)."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    if isinstance(value, (str, bool, float, np.bool_, np.floating)) or value is None:
        return f"{text} (a {type(value).__name__})" if value is not None else "None"
    return text


def _meant(value: Any) -> Any:
    """The number a value of another type probably stands for (``'64'``: 64, ``'0.5'``: 0.5,
    ``2.0``: 2), or None."""
    if isinstance(value, str):
        for parse in (int, float):
            try:
                number = parse(value.strip())
            except ValueError:
                continue
            return number if np.isfinite(number) else None
        return None
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    return None


def _hint(option: str, value: Any, accepts: Callable[[Any], bool] | None) -> str:
    """What the user probably meant, for values that look like a number of another type: said
    only when the option's check (``accepts``) takes it, so a hint never suggests a value that
    is refused in turn (``time_budget=-1.0`` gets none: its sign is the mistake)."""
    if accepts is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "; a bool is not a number here"
    number = _meant(value)
    if number is None or not accepts(number):
        return ""
    if isinstance(value, str):
        return f"; write {option}={number!r}, without quotes"
    return f"; write {option}={number} (a whole number)"


def option_error(option: str, value: Any, expected: str, hint: str | None = None,
                 accepts: Callable[[Any], bool] | None = None) -> OptionError:
    """``<option> must be <expected>, got <value>[; hint]``. The hint, by default, is what the
    value probably meant (``'64'`` -> ``64``) when ``accepts`` (the option's own check, as a
    predicate) takes that; without ``accepts`` no value is suggested."""
    return OptionError(f"{option} must be {expected}, got {shown(value)}"
                       + (_hint(option, value, accepts) if hint is None else hint))


def _int_form(minimum: int | None) -> str:
    if minimum is None:
        return "an int"
    return {0: "a non-negative int", 1: "a positive int"}.get(minimum, f"an int >= {minimum}")


def check_int(option: str, value: Any, minimum: int | None = None, *, none_ok: bool = False,
              expected: str | None = None) -> int | None:
    """An int (``None`` too when ``none_ok``), at least ``minimum``."""
    if value is None and none_ok:
        return None
    form = expected or (_int_form(minimum) + (" or None" if none_ok else ""))

    def accepts(v: Any) -> bool:
        return is_int(v) and (minimum is None or v >= minimum)

    if not accepts(value):
        raise option_error(option, value, form, accepts=accepts)
    return int(value)


def check_number(option: str, value: Any, minimum: float | None = None,
                 maximum: float | None = None, *, none_ok: bool = False, above: bool = False,
                 expected: str | None = None) -> float | None:
    """A real number (int or float, not a bool), within ``[minimum, maximum]``; ``above``
    makes the minimum exclusive."""
    if value is None and none_ok:
        return None

    def accepts(v: Any) -> bool:
        ok = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(
            v, (bool, np.bool_)) and (isinstance(v, (int, np.integer)) or bool(np.isfinite(v)))
        if ok and minimum is not None:
            ok = v > minimum if above else v >= minimum
        if ok and maximum is not None:
            ok = v <= maximum
        return ok

    if not accepts(value):
        if expected is None:
            bounds = [f"{'>' if above else '>='} {minimum}" if minimum is not None else "",
                      f"<= {maximum}" if maximum is not None else ""]
            expected = "a number" + (" " + " and ".join(b for b in bounds if b)
                                     if any(bounds) else "") + (" or None" if none_ok else "")
        raise option_error(option, value, expected, accepts=accepts)
    return float(value)


def check_bool(option: str, value: Any) -> bool:
    """True or False (numpy's bool too); not 0, 1 or a string."""
    if not isinstance(value, (bool, np.bool_)):
        raise option_error(option, value, "True or False")
    return bool(value)


def check_choice(option: str, value: Any, choices: Iterable[Any]) -> Any:
    """One of ``choices``."""
    choices = tuple(choices)
    if not any(value is c or (type(value) is type(c) and value == c) for c in choices):
        *rest, last = map(repr, choices)
        listed = f"{', '.join(rest)} or {last}" if rest else last
        raise option_error(option, value, f"one of {listed}", hint="")
    return value


def check_callable(option: str, value: Any, *, none_ok: bool = False,
                   expected: str = "a callable") -> Callable | None:
    """A function (``None`` too when ``none_ok``)."""
    if value is None and none_ok:
        return None
    if not callable(value):
        raise option_error(option, value, expected + (" or None" if none_ok else ""))
    return value


def _sequence(value: Any) -> bool:
    """An ordered collection of values (tuple, list, 1-D array, vector), not a str or bytes,
    a mapping or a set (whose order is not the user's)."""
    return (isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping, Set))
            and (not isinstance(value, np.ndarray) or value.ndim == 1))


def check_size3(option: str, value: Any, minimum: int) -> tuple[int, int, int]:
    """A size in 1 to 3 dimensions, as an int or a tuple of ints (x, y, z; missing ones are
    1), each at least ``minimum``."""
    form = "an int or a tuple of 1 to 3 ints"
    if is_int(value):
        dims: tuple = (value,)
    elif _sequence(value):
        dims = tuple(value)
        bad = next((d for d in dims if not is_int(d)), None)
        if bad is not None or not dims:
            what = (f"its element {shown(bad)} is not an int" if dims else "it is empty")
            raise OptionError(f"{option} must be {form}, got {shown(value)}: {what}")
        if len(dims) > 3:
            raise OptionError(f"{option} takes 1 to 3 dimensions ({form}), got {value!r}")
    else:
        raise option_error(option, value, form, accepts=lambda v: is_int(v) and v >= minimum)
    if min(dims) < minimum:
        if minimum == 0:
            raise OptionError(f"{option} must not be negative ({form}, each >= 0), got "
                              f"{value!r}")
        raise OptionError(f"{option} must be at least {minimum} in every dimension ({form}), "
                          f"got {value!r}")
    return tuple(int(d) for d in (*dims, 1, 1)[:3])  # type: ignore[return-value]


def check_names(option: str, value: Any) -> tuple[str, ...]:
    """A name or a collection of names (str)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable) and not isinstance(value, (bytes, Mapping)):
        names = tuple(value)
        bad = next((n for n in names if not isinstance(n, str)), None)
        if bad is None:
            return names
        raise OptionError(f"{option} must be a name or a collection of names (str), got "
                          f"{shown(value)}: {shown(bad)} is not a str")
    raise option_error(option, value, "a name or a collection of names (str)")


def check_instances(option: str, value: Any, cls: type, example: str) -> list:
    """A collection of ``cls`` instances (``None`` for none)."""
    if value is None:
        return []
    if isinstance(value, cls):
        raise OptionError(f"{option} takes a list of {cls.__name__} instances, got one "
                          f"({shown(value)}); write {option}=[...] around it")
    if not _sequence(value):
        raise option_error(option, value, f"a list of {cls.__name__} instances, e.g. "
                           f"{option}=[{example}]")
    items = list(value)
    for item in items:
        if isinstance(item, type) and issubclass(item, cls):
            raise OptionError(f"{option} must be a list of {cls.__name__} instances, got "
                              f"{shown(value)}: it holds the class {item.__name__}; pass an "
                              f"instance, e.g. {option}=[{item.__name__}()]")
        if not isinstance(item, cls):
            raise OptionError(f"{option} must be a list of {cls.__name__} instances, got "
                              f"{shown(value)}: {shown(item)} is not one")
    return items
