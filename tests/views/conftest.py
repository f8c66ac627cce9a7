"""Recorded runs the view tests draw (recorded.py: the kernels): examples/racy_counter.py's lost
update, a tree reduction missing its first barrier, and the same reduction with the barrier;
headless Chromium is tests/conftest.py's ``chromium`` fixture."""

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
