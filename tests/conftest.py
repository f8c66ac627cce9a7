"""Session fixtures shared by the test folders."""

import pytest


@pytest.fixture(scope="session")
def gpu_device(tmp_path_factory):
    """A wgpu device on Mesa's lavapipe (tests/gpu.py, docs/oracle.md); the test skips, naming
    what to install, where wgpu or the driver is missing."""
    from gpu import OracleUnavailable, open_lavapipe

    try:
        return open_lavapipe(tmp_path_factory.mktemp("lavapipe"))
    except OracleUnavailable as e:
        pytest.skip(str(e))
