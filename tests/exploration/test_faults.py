"""What an exploration keeps when something goes wrong: its workers end with the process that
explores, however it ends; failures found before a worker crash or a Ctrl-C are in the store
and in the report the error carries, with how to resume."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from helpers import ROOT

#: a script that explores for a long time on two worker processes; each worker writes a file
#: named by its pid when it runs its first run
EXPLORING = '''
import os
import sys

import numpy as np

import asyncshader as ash
from asyncshader import atomic_add, ptr, u32

OUT = sys.argv[1]


@ash.compute(workgroup_size=4)
async def counting(c: ash.Storage, *, local_invocation_index: u32):
    for _ in range(8):
        await atomic_add(ptr(c, 0), 1)


def setup():
    if str(os.getpid()) != os.environ["EXPLORING_PID"]:  # in a worker
        mark = os.path.join(OUT, f"worker-{os.getpid()}")
        if not os.path.exists(mark):
            open(mark, "w").close()
    return {"c": np.zeros(1, np.uint32)}


if __name__ == "__main__":
    os.environ["EXPLORING_PID"] = str(os.getpid())
    ash.explore(counting, setup, None, ash.Random(0), runs=10**8, workers=2, store=None,
                progress=False)
'''


def _alive(pid):
    """Whether process ``pid`` runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _until(condition, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_the_workers_end_when_the_exploring_process_is_killed(tmp_path, how):
    script = tmp_path / "exploring.py"
    script.write_text(textwrap.dedent(EXPLORING))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ASYNCSHADER_STORE": "off"}
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = []
    try:
        def two_workers_run():
            workers[:] = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
            return len(workers) == 2 or parent.poll() is not None

        assert _until(two_workers_run, 60) and parent.poll() is None, (
            parent.stderr.read().decode() if parent.poll() is not None else "no workers")
        parent.send_signal(how)
        parent.wait(10)
        assert _until(lambda: not any(_alive(p) for p in workers), 10), (
            f"orphaned workers still run: {[p for p in workers if _alive(p)]}")
    finally:
        for pid in [parent.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        parent.wait(10)
