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

    try:
        return open_lavapipe(tmp_path_factory.mktemp("lavapipe"))
    except OracleUnavailable as e:
        pytest.skip(str(e))
