"""What the command line runs: ``FILE::KERNEL``, a kernel of a Python file with the file's
``setup()`` and ``check()``, or ``FILE.wgsl::ENTRY``, an entry point of a WGSL file
(:func:`~asyncshader.load_wgsl`) whose ``setup()`` and ``check()`` come from a Python file:
``--setup FILE.py``, else the Python file beside it with the same stem (``reduce.wgsl`` ->
``reduce.py``). ``setup()`` returns the bindings by their WGSL variable names, as for a Python
kernel. An entry point that binds nothing needs no setup file (one workgroup)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from typing import Any

#: the setup file each WGSL file took (traces made by the CLI record it, for ``replay``)
_SETUP_FILES: dict[str, str] = {}


class UsageError(Exception):
    """A command-line mistake: exit code 2 with a message that names the fix."""


def load_target(spec: str, need_setup: bool = True, setup_file: str | None = None
                ) -> tuple[Any, Callable, Callable | None, str, str]:
    """``FILE::KERNEL`` -> (kernel, setup, check or None, absolute file, kernel name); setup is
    None when the file has none and ``need_setup`` is false. ``setup_file``: where a WGSL
    file's ``setup()`` is (default: the ``.py`` file beside it)."""
    if "::" not in spec:
        raise UsageError(f"expected FILE::KERNEL (e.g. examples/lost_update.py::lost_update), "
                         f"got {spec!r}")
    path, name = spec.rsplit("::", 1)
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise UsageError(f"no such file: {path}")
    if path.endswith((".wgsl", ".wesl")):
        return _wgsl_target(path, name, need_setup, setup_file)
    if setup_file is not None:
        raise UsageError(f"--setup is for WGSL files; {os.path.basename(path)} has its own "
                         "setup()")
    module = _import(path)
    kernel = getattr(module, name, None)
    if kernel is None or getattr(kernel, "stage", None) not in ("compute", "fragment"):
        found = [k for k, v in vars(module).items()
                 if getattr(v, "stage", None) in ("compute", "fragment")]
        raise UsageError(f"{os.path.basename(path)} has no kernel named {name!r}"
                         + (f"; kernels there: {', '.join(found)}" if found else ""))
    setup = _for_kernel(module, "setup", name)
    if setup is None and need_setup:
        raise UsageError(f"{os.path.basename(path)} must define setup() (or setup_{name}(), "
                         f"for {name} alone) returning the bindings of one run, e.g. "
                         "def setup(): return {'workgroups': 1, 'out': np.zeros(64, np.float32)}")
    return kernel, setup, _for_kernel(module, "check", name), path, name


def origin(path: str, name: str) -> dict[str, str]:
    """What a trace made by the CLI records of where its kernel is (``replay`` reads it)."""
    found = {"file": path, "kernel": name}
    if path in _SETUP_FILES:
        found["setup"] = _SETUP_FILES[path]
    return found


def _import(path: str) -> Any:
    module_name = os.path.splitext(os.path.basename(path))[0]
    mod_spec = importlib.util.spec_from_file_location(module_name, path)
    if mod_spec is None or mod_spec.loader is None:
        raise UsageError(f"cannot import {path}: is it a Python file?")
    module = importlib.util.module_from_spec(mod_spec)
    sys.modules[module_name] = module
    sys.path.insert(0, os.path.dirname(path))
    try:
        mod_spec.loader.exec_module(module)
    finally:
        sys.path.remove(os.path.dirname(path))
    return module


def _for_kernel(module: Any, what: str, name: str) -> Callable | None:
    """The file's ``setup_KERNEL`` (or ``check_KERNEL``), else its ``setup`` (``check``)."""
    for attr in (f"{what}_{name}", what):
        value = getattr(module, attr, None)
        if callable(value):
            return value
    return None


def _wgsl_target(path: str, name: str, need_setup: bool, setup_file: str | None
                 ) -> tuple[Any, Callable, Callable | None, str, str]:
    from ..front.wgsl.load import load_wgsl
    from ..front.wgsl.source import WGSLError

    try:
        module = load_wgsl(path)
    except WGSLError as exc:  # the compiler's diagnostic: the file, not the command, is wrong
        raise UsageError(str(exc)) from None
    if name not in module.entry_points:
        raise UsageError(f"{os.path.basename(path)} has no entry point named {name!r}; its "
                         f"entry points: {', '.join(module.entry_points) or 'none'}")
    try:
        kernel = module[name]
    except WGSLError as exc:  # (an entry point it does not run: a vertex one, say, and why)
        raise UsageError(str(exc)) from None
    beside = os.path.splitext(path)[0] + ".py"
    if setup_file is None and os.path.isfile(beside):
        setup_file = beside
    if setup_file is None:
        resources = module.reflection.entry_points[name].resources
        _SETUP_FILES.pop(path, None)
        if kernel.stage == "fragment" and need_setup:
            raise UsageError(
                f"{os.path.basename(path)}::{name} is a fragment entry point: give the grid it "
                f"shades (and its inputs) in setup() of a Python file, --setup FILE.py or "
                f"{os.path.basename(beside)} beside it, e.g. def setup(): return "
                "{'width': 8, 'height': 8}")
        if resources and need_setup:
            bound = ", ".join(f"{r.name} (@group({r.group}) @binding({r.binding}))"
                              for r in resources)
            raise UsageError(
                f"{os.path.basename(path)}::{name} binds {bound}: "
                f"give them in setup() of a Python file, --setup FILE.py or "
                f"{os.path.basename(beside)} beside it, by their WGSL names, e.g. "
                f"def setup(): return {{'workgroups': 1, '{resources[0].name}': np.zeros(64, "
                "np.float32)}")
        return kernel, (lambda: {}) if not resources else None, None, path, name
    setup_file = os.path.abspath(setup_file)
    if not os.path.isfile(setup_file):
        raise UsageError(f"--setup {setup_file}: no such file")
    helpers = _import(setup_file)
    setup = _for_kernel(helpers, "setup", name)
    if setup is None and need_setup:
        raise UsageError(f"{os.path.basename(setup_file)} must define setup() (or "
                         f"setup_{name}()) returning the bindings of one run of {name} by their "
                         "WGSL names, e.g. def setup(): return {'workgroups': 1, ...}")
    _SETUP_FILES[path] = setup_file
    return kernel, setup, _for_kernel(helpers, "check", name), path, name
