"""Module paths from before the layout (0.1: every module directly in asyncshader/) still import,
with a DeprecationWarning that names the new place (asyncshader/_compat.py)."""

import importlib
import subprocess
import sys
import warnings

import pytest

import asyncshader as ash
from asyncshader._compat import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_old_path_names_an_existing_module(old):
    importlib.import_module(f"asyncshader.{MOVED[old]}")


def test_an_old_path_gives_the_same_object_and_says_where_it_lives_now():
    from asyncshader.schedules.strategies import Random
    with pytest.warns(DeprecationWarning, match=r"asyncshader\.schedule moved.*"
                      r"from asyncshader\.schedules\.strategies"):
        from asyncshader.schedule import Random as old_random
    assert old_random is Random


def test_a_name_that_moved_to_a_sibling_module_is_found_there():
    with pytest.warns(DeprecationWarning, match=r"from asyncshader\.schedules\.trace"):
        from asyncshader.schedule import TRACE_FORMAT
    assert TRACE_FORMAT == "asyncshader.trace"


def test_the_old_barriers_module_path_still_gives_the_barriers():
    with pytest.warns(DeprecationWarning, match=r"asyncshader\.collectives moved"):
        from asyncshader.collectives import workgroup_barrier
    assert workgroup_barrier is ash.workgroup_barrier


def test_a_missing_name_on_an_old_path_names_both_paths():
    old = importlib.import_module("asyncshader.races")
    with pytest.raises(AttributeError, match=r"asyncshader\.races.*asyncshader\.sanitizers\.races"):
        old.no_such_name  # noqa: B018
    with pytest.raises(ImportError, match=r"no_such_name.*asyncshader\.races"):
        from asyncshader.races import no_such_name  # noqa: F401


def test_importing_an_old_path_does_not_shadow_the_function_of_the_same_name():
    # asyncshader.explore was a module and ash.explore is a function: the module import must
    # not replace the attribute (it would if the stand-in were imported as a fresh submodule)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import asyncshader.explore  # noqa: F401
        from asyncshader.explore import Recorded  # noqa: F401
    assert callable(ash.explore) and ash.explore.__module__ == "asyncshader.exploration.explore"


def test_old_paths_work_in_a_fresh_interpreter():
    code = ("import warnings; warnings.simplefilter('error')\n"
            "try:\n    from asyncshader.compute import compute\nexcept DeprecationWarning as w:\n"
            "    print(w)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "asyncshader.compute moved" in out and "asyncshader.stages.compute" in out
