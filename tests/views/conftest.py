"""Recorded runs the view tests draw (recorded.py: the kernels): examples/racy_counter.py's lost
update, a tree reduction missing its first barrier, and the same reduction with the barrier;
plus headless Chromium for the browser tests."""

import os
import shutil
import subprocess

import numpy as np
import pytest
from helpers import load_example
from recorded import record, reduce_missing_barrier, reduce_ok


@pytest.fixture
def counter_run():
    """racy_counter.racy_increment, one workgroup of 8, InOrder."""
    rc = load_example("racy_counter.py")
    return record(rc.racy_increment, counter=np.zeros(1, np.uint32),
                  tickets=np.zeros(1, np.uint32), seen=np.zeros(8, np.uint32),
                  order=np.zeros(8, np.uint32))


@pytest.fixture
def missing_barrier_run():
    return record(reduce_missing_barrier, inp=np.arange(1, 9, dtype=np.float32),
                  partial=np.zeros(1, np.float32))


@pytest.fixture
def reduce_ok_run():
    return record(reduce_ok, inp=np.arange(1, 9, dtype=np.float32),
                  partial=np.zeros(1, np.float32))


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium(tmp_path):
    """``chromium(page, *args)``: runs headless Chromium on a file with a fresh profile under
    tmp_path; returns its stdout (``--dump-dom``) or writes a screenshot (``--screenshot=``).
    Skips when Debian's chromium is not installed (.ci/install-chromium installs it)."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/install-chromium)")
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path / "xdg"))
    os.makedirs(env["XDG_RUNTIME_DIR"], exist_ok=True)

    def run(page, *args):
        profile = tmp_path / f"profile{len(os.listdir(tmp_path))}"
        done = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args,
                               page.as_uri()], capture_output=True, text=True, timeout=120,
                              env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    return run
