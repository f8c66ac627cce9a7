"""Session fixtures shared by the test folders."""

import os

import pytest

# explore() saves failures to a store, .asyncshader/failures under the current folder by
# default: off for the tests (and the processes they start); the store's own tests pass store=
os.environ["ASYNCSHADER_STORE"] = "off"


@pytest.fixture(scope="session")
def gpu_device(tmp_path_factory):
    """A wgpu device on Mesa's lavapipe (tests/gpu.py, docs/oracle.md); the test skips, naming
    what to install, where wgpu or the driver is missing."""
    from gpu import OracleUnavailable, open_lavapipe

    from asyncshader.extra import device as shared

    if shared._DEVICE and shared.is_cpu_vulkan(shared._DEVICE[0]):
        return shared._DEVICE[0]  # (the cross-check's device, opened first: one per session)
    try:
        dev = open_lavapipe(tmp_path_factory.mktemp("lavapipe"))
    except OracleUnavailable as e:
        pytest.skip(str(e))
    shared.use(dev)  # the cross-check (wgsl_device, ash.crosscheck) runs on it too
    return dev


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture
def chromium(tmp_path):
    """``chromium(page, *args)``: runs headless Chromium on a file with a fresh profile under
    tmp_path; returns its stdout (``--dump-dom``) or writes a screenshot (``--screenshot=``).
    Skips when Debian's chromium is not installed (.ci/install-chromium installs it)."""
    import os
    import shutil
    import subprocess

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
