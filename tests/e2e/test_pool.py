"""The warm pool with real jails: a burst of concurrent acquires grows it to
the burst's size, every acquire gets a distinct running sandbox, and once the
demand is over it shrinks back to its floor leaving no jail, cgroup or
directory behind (the speed of all this is bench/'s burst benchmark)."""

from __future__ import annotations

import threading

from conftest import cgroup_dirs, cgroup_parent, jail_pids, wait_until


def pool_state(server) -> dict:
    return server._raw.get(f"{server.base}/healthz").json()["pool"]


def sandbox_dirs(server) -> set[str]:
    return {p.name for p in (server.data_dir / "sandboxes").iterdir()}


def test_a_burst_grows_the_pool_and_idleness_shrinks_it_back(make_server):
    s = make_server(["--pool-size", "2", "--pool-idle-seconds", "3", "--pool-max", "12"])
    owner = s.new_owner()
    wait_until(lambda: pool_state(s)["idle"] == 2, 30, what="the floor")
    floor_dirs = sandbox_dirs(s)
    assert len(floor_dirs) == 2

    ids, errors = [], []
    barrier = threading.Barrier(10)

    def acquire():
        api = s.client(owner.key)
        barrier.wait()
        r = api.acquire(body={"server_names": ["filesystem"]})
        (ids if r.status_code == 201 else errors).append(r.json().get("local_sandbox_id", r.text))

    threads = [threading.Thread(target=acquire) for _ in range(10)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert errors == [] and len(set(ids)) == 10
    # Demand reached 10 (or near it): the pool grew towards it and fills up.
    grown = wait_until(lambda: (p := pool_state(s))["starting"] == 0 and p["idle"] >= p["target"] and p, 60,
                       what="the grown pool")
    assert 3 <= grown["target"] <= 10 and grown["idle"] == grown["target"], grown
    for sid in ids:
        assert owner.release(sid).status_code == 200
    wait_until(lambda: not (set(ids) & sandbox_dirs(s)), 30, what="the releases")

    # Idle for --pool-idle-seconds: back to the floor, the surplus destroyed
    # with its jail, cgroups and directory.
    wait_until(lambda: (p := pool_state(s))["idle"] == 2 and p["target"] == 2, 30, what="the shrink")
    wait_until(lambda: len(sandbox_dirs(s)) == 2, 10, what="the surplus directories gone")
    parent = cgroup_parent(s.data_dir)
    groups = lambda: {d.name for d in cgroup_dirs(s.data_dir) if d.name != parent}
    wait_until(lambda: groups() == sandbox_dirs(s), 10, what="the surplus cgroups gone")
    assert pool_state(s)["idle"] == 2
    # SIGTERM discards the floor too: nothing of the pool outlives sandboxd.
    assert s.stop() == 0
    assert sandbox_dirs(s) == set()
    assert groups() == set() and jail_pids(s.data_dir) == set()
