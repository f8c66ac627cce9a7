"""An option's hint ("write NAME=VALUE") only ever suggests a value the option's check takes:
every check in asyncshader/_core/validation.py, and the entry points' options, are walked with
values of the wrong type or out of range, and each suggestion is fed back to the same check."""

import ast
import re

import numpy as np
import pytest
from helpers import shared_add, two

import asyncshader as ash
from asyncshader._core import validation
from asyncshader.collectives.subgroups import check_subgroup_size

HINT = re.compile(r"; write (\w+)=(.+?)(?:, without quotes| \(a whole number\))$")

#: values that look like a number of another type, or are out of every range below
VALUES = ["10", " 3 ", "-3", "0", "0.5", "2.5", "1e3", "abc", "", "nan", "inf", 2.0, -1.0,
          0.0, 3.0, 64.0, 1.5, -0.5, 1e300, float("nan"), float("inf"), True, False,
          np.True_, np.float32(4.0), np.float64(-2.0), -5, 0, None, [2], (1, 2)]

#: each hinting check of validation.py (and of the options defined elsewhere), with the
#: arguments that fix what it checks; the walk below runs every value through every one
CHECKS = {
    "check_int": [{"minimum": m, "none_ok": n} for m in (None, 0, 1, 5) for n in (False, True)],
    "check_number": [{"minimum": 0, "above": True, "none_ok": True},
                     {"minimum": 0, "maximum": 1}, {"minimum": 1}, {"maximum": -1}, {}],
    "check_size3": [{"minimum": 0}, {"minimum": 1}],
}
#: the checks that never suggest a value (their hints are fixed texts, or none)
NO_VALUE_HINTS = {"check_bool", "check_callable", "check_choice", "check_instances",
                  "check_names"}


def suggestion(err):
    """The value a message suggests, or None (and its option name must be the one refused)."""
    found = HINT.search(str(err))
    return None if found is None else (found.group(1), ast.literal_eval(found.group(2)))


def test_every_check_of_the_validation_module_is_walked():
    checks = {n for n in validation.__all__ if n.startswith("check_")}
    assert checks == set(CHECKS) | NO_VALUE_HINTS


def walk(check):
    """(value, suggestion) for each value ``check`` refuses with a suggestion; asserts each
    suggestion is accepted by ``check``."""
    suggested = []
    for value in VALUES:
        try:
            check(value)
        except ash.OptionError as err:
            hint = suggestion(err)
            if hint is None:
                continue
            option, fixed = hint
            assert option == "opt", err
            check(fixed)  # the suggestion is taken by the same check (raises if not)
            suggested.append((value, fixed))
    return suggested


@pytest.mark.parametrize("name, kwargs", [(n, k) for n, ks in CHECKS.items() for k in ks],
                         ids=lambda v: v if isinstance(v, str) else repr(v))
def test_each_suggestion_of_a_check_is_a_value_it_accepts(name, kwargs):
    check = getattr(validation, name)
    suggested = walk(lambda v: check("opt", v, **kwargs))
    assert suggested, "some value gets a suggestion (the walk is not empty)"


def test_a_suggestion_is_given_when_it_is_accepted():
    with pytest.raises(ash.OptionError, match=r"; write opt=10, without quotes$"):
        validation.check_int("opt", "10", 1)
    with pytest.raises(ash.OptionError, match=r"; write opt=2 \(a whole number\)$"):
        validation.check_int("opt", 2.0, 1)
    with pytest.raises(ash.OptionError, match=r"; write opt=0.5, without quotes$"):
        validation.check_number("opt", "0.5", 0, 1)


@pytest.mark.parametrize("call, value", [
    (lambda v: validation.check_int("opt", v, 1), -1.0),
    (lambda v: validation.check_int("opt", v, 1), "-3"),
    (lambda v: validation.check_number("opt", v, 0, none_ok=True, above=True), -1.0),
    (lambda v: validation.check_number("opt", v, 0, 1), 2.0),
    (lambda v: validation.check_number("opt", v, 0, 1), "2"),
    (lambda v: validation.check_size3("opt", v, 1), 0.0),
])
def test_a_value_refused_for_its_range_gets_no_suggestion(call, value):
    with pytest.raises(ash.OptionError) as err:
        call(value)
    assert "write" not in str(err.value)


def test_subgroup_sizes_suggest_only_a_size_the_check_takes():
    suggested = []
    for value in [8.0, 3.0, "16", "12", 256.0]:
        try:
            check_subgroup_size(value)
        except ash.OptionError as err:
            hint = suggestion(err)
            if hint is not None:
                check_subgroup_size(hint[1])
                suggested.append(hint[1])
    assert suggested == [8, 16]


def explore(**options):
    return ash.explore(**{"kernel": shared_add, "setup": two, "runs": 1, **options})


@pytest.mark.parametrize("option, value, fixed", [
    ("time_budget", -1.0, None), ("time_budget", "-1", None), ("time_budget", "2", 2),
    ("recheck", 2.0, None), ("recheck", "2", None), ("recheck", "0.5", 0.5),
    ("runs", 0.0, None), ("runs", "5", 5), ("runs", 5.0, 5),
    ("workers", -2.0, None), ("workers", 2.0, 2),
])
def test_explore_suggests_only_values_it_accepts(option, value, fixed):
    with pytest.raises(ash.OptionError) as err:
        explore(**{option: value})
    hint = suggestion(err.value)
    assert (None if hint is None else hint[1]) == fixed, str(err.value)
    if fixed is not None:
        assert hint[0] == option
