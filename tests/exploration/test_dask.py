"""explore(executor=...) on a Dask cluster of processes: the report equals the serial one."""

import pytest
from test_parallel import check, lost_two, racy_lock, setup, summary

import asyncshader as ash

distributed = pytest.importorskip("distributed", reason="Dask is optional: pip install "
                                  "'asyncshader[dask]'")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        local_directory=str(tmp_path_factory.mktemp("dask")))
    with cluster, distributed.Client(cluster) as c:
        yield c


@pytest.mark.parametrize(("strategy", "test", "stop_on_failure"), [
    (ash.PCT(3), check, False), (ash.Random(0), lost_two, True)])
def test_a_dask_cluster_gives_the_serial_report(client, strategy, test, stop_on_failure):
    kw = dict(runs=150, stop_on_failure=stop_on_failure, store=None)
    serial = ash.explore(racy_lock, setup, test, strategy, workers=1, **kw)
    with distributed.get_task_stream(client) as tasks:
        on_dask = ash.explore(racy_lock, setup, test, strategy,
                              executor=client.get_executor(), **kw)
    assert serial.failures and summary(on_dask) == summary(serial)
    # the runs after the first 16 ran as tasks on the cluster's two worker processes
    assert serial.runs > 16 and tasks.data
    assert len({t["worker"] for t in tasks.data}) >= 1


def test_the_clusters_size_sets_how_many_tasks_are_in_flight(client):
    from asyncshader.exploration import parallel

    assert parallel._executor_size(client.get_executor()) == 2  # 2 workers x 1 thread


def test_a_dask_worker_with_two_threads_gives_the_serial_report(tmp_path):
    """Two threads of one worker process run tasks at once: a kernel's workgroup memory is
    shared by them, and its runs take turns at it."""
    from test_threads import summary as threads_summary
    from test_threads import sums_check, sums_setup, tree_sum

    kw = dict(runs=80, stop_on_failure=False, store=None)
    serial = ash.explore(tree_sum, sums_setup, sums_check, ash.Random(0), workers=1, **kw)
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0",
        local_directory=str(tmp_path))
    with cluster, distributed.Client(cluster) as two_threads:
        on_dask = ash.explore(tree_sum, sums_setup, sums_check, ash.Random(0),
                              executor=two_threads.get_executor(), **kw)
    assert not serial.failures and threads_summary(on_dask) == threads_summary(serial)
