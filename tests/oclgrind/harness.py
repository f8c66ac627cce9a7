"""Run an OpenCL C kernel under Oclgrind (the OpenCL device simulator) and collect its races.

Oclgrind prints its diagnostics on the stderr of the host process, so every kernel runs in a
child process (this file, run as a script) that builds it with pyopencl on the Oclgrind platform;
the parent parses the child's stderr. Used by tests/test_oclgrind_agreement.py and
benchmarks/oclgrind_reduce.py.

Selecting Oclgrind: pyopencl's wheels bundle the ocl-icd loader, which reads the vendor files in
``OCL_ICD_VENDORS`` (default ``/etc/OpenCL/vendors``). Debian's ``oclgrind`` package installs the
ICD library (``/usr/lib/oclgrind/liboclgrind-rt-icd.so``) but no vendor file, so the child gets
``OCL_ICD_VENDORS`` pointing at a private directory holding an ``oclgrind.icd`` that names the
library (unless ``/etc/OpenCL/vendors/oclgrind.icd`` exists). The detector is switched on with
``OCLGRIND_DATA_RACES=1`` (``oclgrind --data-races``) and same-value writes are reported with
``OCLGRIND_UNIFORM_WRITES=1`` (``--uniform-writes``). ``OCLGRIND_NUM_THREADS=1`` makes Oclgrind
run the work-groups one after another in order (group 0 first), which keeps inter-group reports
deterministic.

    python tests/oclgrind/harness.py            # prints whether Oclgrind can be used, and why not
"""

from __future__ import annotations

import glob
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
_ICD_NAMES = ("liboclgrind-rt-icd.so",)
_ICD_DIRS = ("/usr/lib/oclgrind", "/usr/lib64/oclgrind", "/usr/local/lib/oclgrind",
             "/usr/lib/x86_64-linux-gnu/oclgrind", "/usr/local/lib", "/usr/lib")


@dataclass(frozen=True)
class Local:
    """A ``__local`` pointer argument of ``nbytes`` bytes (clSetKernelArg with a NULL value)."""

    nbytes: int


@dataclass(frozen=True)
class Race:
    """One race report of Oclgrind: kind ("read-write"/"write-write"), memory ("local"/"global"),
    the two entities' source lines (first, second, as Oclgrind printed them) and groups."""

    kind: str
    memory: str
    first_line: int
    second_line: int
    first_group: tuple
    second_group: tuple

    @property
    def lines(self) -> tuple[int, int]:
        return tuple(sorted((self.first_line, self.second_line)))

    @property
    def same_group(self) -> bool:
        return self.first_group == self.second_group


@dataclass
class Report:
    """What a run under Oclgrind gave: the parsed races, any other Oclgrind error messages, the
    buffers read back after the kernel (one per numpy argument, in order), and raw stderr."""

    races: list[Race]
    errors: list[str]
    outputs: list[np.ndarray]
    stderr: str
    seconds: float = 0.0  # best kernel time, enqueue to finish
    extra: dict = field(default_factory=dict)

    @property
    def race_set(self) -> set[tuple[str, int, int]]:
        """The races as a set of (kind, line1, line2), line1 <= line2."""
        return {(r.kind, *r.lines) for r in self.races}


# --------------------------------------------------------------------------- finding Oclgrind
def icd_library() -> str | None:
    """Path of Oclgrind's ICD library, or None."""
    vendor = "/etc/OpenCL/vendors/oclgrind.icd"
    if os.path.exists(vendor):
        with open(vendor) as f:
            lib = f.read().strip()
        if lib and (os.path.exists(lib) or "/" not in lib):
            return lib
    exe = shutil.which("oclgrind")
    dirs = list(_ICD_DIRS)
    if exe:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(exe)))
        dirs[:0] = [os.path.join(prefix, "lib", "oclgrind"), os.path.join(prefix, "lib")]
    for d in dirs:
        for name in _ICD_NAMES:
            for path in glob.glob(os.path.join(d, name + "*")):
                return path
    return None


_vendor_dir: str | None = None


def child_env(data_races: bool = True, uniform_writes: bool = False,
              threads: int = 1) -> dict[str, str]:
    """The environment that makes pyopencl in a child process see Oclgrind (only Oclgrind)."""
    global _vendor_dir
    lib = icd_library()
    if lib is None:
        raise RuntimeError("Oclgrind's ICD library (liboclgrind-rt-icd.so) was not found")
    if _vendor_dir is None:
        _vendor_dir = tempfile.mkdtemp(prefix="oclgrind-icd-")
        with open(os.path.join(_vendor_dir, "oclgrind.icd"), "w") as f:
            f.write(lib + "\n")
    env = dict(os.environ)
    for k in [k for k in env if k.startswith("OCLGRIND_")]:
        del env[k]
    env.update(OCL_ICD_VENDORS=_vendor_dir, OCLGRIND_NUM_THREADS=str(threads),
               PYOPENCL_COMPILER_OUTPUT="0", PYOPENCL_NO_CACHE="1",
               PYTHONWARNINGS="ignore")
    if data_races:
        env["OCLGRIND_DATA_RACES"] = "1"
    if uniform_writes:
        env["OCLGRIND_UNIFORM_WRITES"] = "1"
    return env


def available() -> tuple[bool, str]:
    """(True, "") when pyopencl is installed and its loader finds the Oclgrind platform; else
    (False, why)."""
    try:
        import pyopencl  # noqa: F401
    except ImportError as e:
        return False, f"pyopencl is not installed ({e}); pip install pyopencl"
    if icd_library() is None:
        return False, ("Oclgrind's ICD library liboclgrind-rt-icd.so was not found; "
                       "apt-get install oclgrind ocl-icd-libopencl1")
    try:
        p = subprocess.run([sys.executable, __file__, "--probe"], env=child_env(False),
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, f"probing the Oclgrind platform failed: {e}"
    if p.returncode != 0 or "Oclgrind" not in p.stdout:
        return False, ("pyopencl does not see the Oclgrind platform: "
                       + (p.stderr.strip().splitlines() or ["?"])[-1])
    return True, ""


# ------------------------------------------------------------------------------ running one
def run(cl_file: str, kernel: str, global_size: Any, local_size: Any, args: list, *,
        data_races: bool = True, uniform_writes: bool = False, build_options: str = "",
        repeat: int = 1, threads: int = 1, timeout: float = 120) -> Report:
    """Build ``cl_file`` (its text verbatim, so Oclgrind's line numbers are the file's) on
    Oclgrind and run ``kernel`` over ``global_size``/``local_size``. ``args``: numpy arrays
    (global buffers, read back into ``Report.outputs``), :class:`Local` (``__local`` memory),
    numpy scalars (by value). ``repeat`` runs the kernel that many times (fresh buffers each
    time) and ``Report.seconds`` is the best kernel time (enqueue to finish). ``threads`` is
    Oclgrind's worker-thread count (1: work-groups run in order, deterministic reports)."""
    path = cl_file if os.path.isabs(cl_file) else os.path.join(HERE, cl_file)
    with open(path) as f:
        source = f.read()
    return run_source(source, kernel, global_size, local_size, args, data_races=data_races,
                      uniform_writes=uniform_writes, build_options=build_options,
                      repeat=repeat, threads=threads, timeout=timeout)


def run_source(source: str, kernel: str, global_size: Any, local_size: Any, args: list, *,
               data_races: bool = True, uniform_writes: bool = False, build_options: str = "",
               repeat: int = 1, threads: int = 1, timeout: float = 120) -> Report:
    """:func:`run` on OpenCL C source text (Oclgrind's line numbers are its lines)."""
    spec = dict(source=source, kernel=kernel, global_size=_tuple(global_size),
                local_size=_tuple(local_size), args=[_plain_arg(a) for a in args],
                build_options=build_options,
                repeat=repeat)
    with tempfile.TemporaryDirectory(prefix="oclgrind-run-") as tmp:
        spec_path, out_path = os.path.join(tmp, "spec.pkl"), os.path.join(tmp, "out.pkl")
        with open(spec_path, "wb") as f:
            pickle.dump(spec, f)
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, __file__, "--child", spec_path, out_path],
                           env=child_env(data_races, uniform_writes, threads), capture_output=True,
                           text=True, timeout=timeout)
        wall = time.perf_counter() - t0
        if p.returncode != 0 or not os.path.exists(out_path):
            raise RuntimeError(f"the Oclgrind child failed (exit {p.returncode}):\n"
                               f"{p.stdout}\n{p.stderr}")
        with open(out_path, "rb") as f:
            outputs, seconds = pickle.load(f)
    races, errors = parse(p.stderr)
    return Report(races, errors, outputs, p.stderr, seconds, {"wall": wall})


def _plain_arg(a: Any) -> tuple:
    """An argument as a tuple of plain values (the child unpickles no class of this module)."""
    if isinstance(a, Local):
        return ("local", int(a.nbytes))
    if isinstance(a, np.ndarray):
        return ("buffer", a)
    return ("scalar", a)


def _tuple(size: Any) -> tuple:
    return (int(size),) if isinstance(size, (int, np.integer)) else tuple(int(s) for s in size)


# ------------------------------------------------------------------------------ the parser
_RACE = re.compile(r"^(Read-write|Write-write) data race at (\w+) memory address")
_ENTITY = re.compile(r"^\s*(First|Second) entity:.*?Group\((\d+),(\d+),(\d+)\)")
_LINE = re.compile(r"^\s*At line (\d+) \(column \d+\) of ")


def parse(stderr: str) -> tuple[list[Race], list[str]]:
    """Oclgrind's race reports in ``stderr`` as :class:`Race` objects, and the titles of its
    other error messages (divergence, invalid accesses, ...)."""
    races: list[Race] = []
    errors: list[str] = []
    blocks = re.split(r"\n\s*\n(?=\S)", stderr)
    for block in blocks:
        lines = block.strip("\n").splitlines()
        if not lines:
            continue
        m = _RACE.match(lines[0])
        if m is None:
            if lines[0].strip() and not lines[0].startswith((" ", "\t")):
                errors.append(lines[0].strip())
            continue
        entity_lines: dict[str, int] = {}
        groups: dict[str, tuple] = {}
        current = None
        for text in lines[1:]:
            e = _ENTITY.match(text)
            if e:
                current = e.group(1)
                groups[current] = tuple(int(g) for g in e.group(2, 3, 4))
                continue
            ln = _LINE.match(text)
            if ln and current and current not in entity_lines:
                entity_lines[current] = int(ln.group(1))
        races.append(Race(kind=m.group(1).lower(), memory=m.group(2),
                          first_line=entity_lines.get("First", 0),
                          second_line=entity_lines.get("Second", 0),
                          first_group=groups.get("First", ()),
                          second_group=groups.get("Second", ())))
    return races, errors


# ----------------------------------------------------------------------------- the child side
def _child(spec_path: str, out_path: str) -> None:
    import pyopencl as cl

    with open(spec_path, "rb") as f:
        spec = pickle.load(f)
    platform = next(p for p in cl.get_platforms() if "Oclgrind" in p.name)
    ctx = cl.Context(platform.get_devices())
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, spec["source"]).build(options=spec["build_options"])
    kernel = getattr(program, spec["kernel"])
    best, outputs = float("inf"), []
    for _ in range(spec["repeat"]):
        bufs, cl_args = [], []
        for kind, a in spec["args"]:
            if kind == "local":
                cl_args.append(cl.LocalMemory(a))
            elif kind == "buffer":
                host = np.ascontiguousarray(a).copy()
                buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                hostbuf=host)
                bufs.append((host, buf))
                cl_args.append(buf)
            else:
                cl_args.append(a)  # a numpy scalar, passed by value
        queue.finish()
        t0 = time.perf_counter()
        kernel(queue, spec["global_size"], spec["local_size"], *cl_args)
        queue.finish()
        best = min(best, time.perf_counter() - t0)
        outputs = []
        for host, buf in bufs:
            cl.enqueue_copy(queue, host, buf)
            outputs.append(host)
        queue.finish()
    with open(out_path, "wb") as f:
        pickle.dump((outputs, best), f)


def _probe() -> None:
    import pyopencl as cl

    for p in cl.get_platforms():
        print(p.name, [d.name for d in p.get_devices()])


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3])
    elif sys.argv[1:] == ["--probe"]:
        _probe()
    else:
        ok, why = available()
        print("Oclgrind is available" if ok else f"Oclgrind is not available: {why}")
        sys.exit(0 if ok else 1)
