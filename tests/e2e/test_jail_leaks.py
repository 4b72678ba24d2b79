"""Nothing of a jail outlives its sandbox: hundreds of acquire/release cycles,
a kill -9 of sandboxd in the middle of them, agents that die while sandboxd is
down or while it runs.

"Nothing left" means, for one sandboxd instance (its data dir):
  * no directory under data/sandboxes/ but those of live sandboxes and of the
    warm pool;
  * no cgroup below the instance's parent group (any hierarchy) but theirs;
  * no process running the sandbox-agent binary in those groups but one
    agent per live sandbox or pool slot (found by scanning /proc), and no
    other process in the groups;
  * the host's mount table unchanged: a jail's mounts exist only in its own
    mount namespace.
After SIGTERM, the pool's jails are gone too (live sandboxes' jails survive a
stop by design; these tests release theirs first).

test_restart_after_kill9_in_the_middle_of_cgroup_removal documents a product
bug and fails until CgroupTree::KillAll accepts a half-removed group.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from conftest import (
    assert_json,
    cgroup_dirs,
    cgroup_parent,
    jail_pids,
    make_tar,
    not_found_detail,
    read_tar,
    wait_until,
)
from sandbox_exec import agent_pid, agent_processes, group_pids, run_program, start_execution, upload_execution

POOL = 2
CYCLES = 200


def host_mounts() -> list[str]:
    """The host's mount table (this process shares sandboxd's mount namespace)."""
    return sorted(Path("/proc/self/mountinfo").read_text().splitlines())


def sandbox_dirs(s) -> set[str]:
    d = s.data_dir / "sandboxes"
    return set(os.listdir(d)) if d.is_dir() else set()


def cgroup_names(s) -> set[str]:
    """Names of the groups below the instance's parent (over all hierarchies)."""
    parent = cgroup_parent(s.data_dir)
    return {p.name for p in cgroup_dirs(s.data_dir) if p.name != parent}


def jail_state(s) -> dict:
    agents = agent_processes(s.data_dir)
    return {
        "dirs": sandbox_dirs(s),
        "cgroups": cgroup_names(s),
        "agents": sorted(agents.values()),
        "agent_pids": set(agents),
        "jail_pids": jail_pids(s.data_dir),
    }


def settled(s, live: set[str], pool: int):
    """True once exactly the live sandboxes plus `pool` idle ones exist, each
    with its directory, its cgroup and one agent, and nothing else runs in
    the groups. Returns the state (truthy) or raises AssertionError."""
    st = jail_state(s)
    idle = st["dirs"] - live
    assert live <= st["dirs"], ("live sandbox without a directory", live - st["dirs"], st)
    assert len(idle) == pool, (f"{len(idle)} idle sandbox dirs, want {pool}", st)
    assert st["cgroups"] == st["dirs"], ("cgroups != sandbox dirs", st)
    assert st["agents"] == sorted(st["dirs"]), ("not one agent per sandbox", st)
    assert st["jail_pids"] == st["agent_pids"], ("processes other than the agents in the groups", st)
    return st


def wait_settled(s, live: set[str], pool: int = POOL, timeout: float = 20) -> dict:
    return wait_until(lambda: settled(s, live, pool), timeout=timeout, interval=0.05,
                      what=f"{len(live)} live + {pool} pool jails and nothing else")


def assert_all_gone(s, mounts_before: list[str]):
    """After SIGTERM (or a final stop): no jail, no group below the parent, no directory."""
    st = jail_state(s)
    assert st["agents"] == [] and st["jail_pids"] == set(), st
    assert st["cgroups"] == set(), st
    assert st["dirs"] == set(), st
    assert host_mounts() == mounts_before


def gone(s, sid) -> bool:
    return not s.sandbox_dir(sid).exists()


def cycle(api, s) -> tuple[str, bool]:
    """One acquire/release; waits until the released sandbox's directory is gone.
    Returns (id, whether it was a hand-over from the pool)."""
    idle_before = sandbox_dirs(s)
    sid = api.acquire_ok()["local_sandbox_id"]
    r = api.release(sid)
    assert r.status_code == 200, (r.status_code, r.text)
    wait_until(lambda: gone(s, sid), timeout=15, interval=0.005, what=f"{sid} released and removed")
    return sid, sid in idle_before


def assert_same_mount_namespace(s):
    assert os.readlink(f"/proc/{s.proc.pid}/ns/mnt") == os.readlink("/proc/self/ns/mnt")


WORKSPACE = make_tar([("keep/a.txt", b"alpha\n"), ("keep/b.bin", bytes(range(256)) * 16)])

WRITE_DATA = r'''
import os
open("/data/made-by-exec.txt", "w").write("written inside\n")
os.makedirs("/data/sub", exist_ok=True)
open("/data/sub/c.txt", "w").write("gamma\n")
print("wrote", sorted(os.listdir("/data")))
'''

READ_DATA = r'''
import hashlib, os
for p in ("keep/a.txt", "keep/b.bin", "made-by-exec.txt", "sub/c.txt"):
    print(p, hashlib.sha256(open("/data/" + p, "rb").read()).hexdigest()[:16])
'''


def prepare_keeper(api, s) -> tuple[str, list, str]:
    """A sandbox with an initialized workspace and changes made by an execution;
    returns (id, its dump, what READ_DATA prints)."""
    sid = api.acquire_ok()["local_sandbox_id"]
    api.upload_and_initialize(sid, WORKSPACE)
    status, logs = run_program(api, sid, WRITE_DATA, name="write")
    assert status == "completed", logs
    status, reading = run_program(api, sid, READ_DATA, name="read")
    assert status == "completed", reading
    return sid, read_tar(api.dump_bytes(sid)), reading


def assert_keeper_intact(api, sid, dump, reading):
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    assert read_tar(api.dump_bytes(sid)) == dump
    status, logs = run_program(api, sid, READ_DATA, name="read")
    assert (status, logs) == ("completed", reading)


# --------------------------------------------------------------------------- tests


def test_cycles_leave_nothing_behind(make_server):
    mounts_before = host_mounts()
    s = make_server(extra_args=["--pool-size", str(POOL)])
    assert_same_mount_namespace(s)
    api = s.new_owner()
    wait_settled(s, set())
    handovers = 0
    started = time.monotonic()
    for _ in range(CYCLES):
        _, handover = cycle(api, s)
        handovers += handover
    elapsed = time.monotonic() - started
    print(f"\n{CYCLES} cycles in {elapsed:.1f}s, {handovers} hand-overs from the pool")
    assert handovers >= CYCLES // 2, f"only {handovers} of {CYCLES} acquires came from the pool"
    assert api.count() == 0
    # SIGTERM: the idle pool's jails are destroyed with it
    stop_and_assert_all_gone(s, mounts_before)


def stop_and_assert_all_gone(s, mounts_before):
    """Once nothing is held: no sandbox left, host mounts as before, and a
    SIGTERM (exit 0) takes the idle pool's jails with it."""
    wait_settled(s, set())
    assert host_mounts() == mounts_before
    assert s.stop() == 0
    assert_all_gone(s, mounts_before)


def test_kill9_in_the_middle_of_cycles(make_server):
    mounts_before = host_mounts()
    s = make_server(extra_args=["--pool-size", str(POOL)])
    api = s.new_owner()
    key, owner = api.key, api.owner
    keeper, dump, reading = prepare_keeper(api, s)
    wait_settled(s, {keeper})

    half = CYCLES // 2
    for _ in range(half):
        cycle(api, s)

    # The crash: some sandboxes held, some releases just begun.
    held = [api.acquire_ok()["local_sandbox_id"] for _ in range(3)]
    releasing = [api.acquire_ok()["local_sandbox_id"] for _ in range(3)]
    for sid in releasing:
        assert api.release(sid).status_code == 200
    s.kill9()
    in_flight = [sid for sid in releasing if s.sandbox_dir(sid).exists()]
    print(f"\nkill -9 with {len(held)} held and {len(in_flight)} of {len(releasing)} releases unfinished")
    # Jails outlive sandboxd; nothing has been cleaned up behind its back.
    assert agent_processes(s.data_dir), "every jail died with sandboxd"

    s.start()
    assert_same_mount_namespace(s)
    api = s.client(key, owner)
    for sid in releasing:
        assert_json(api.get(sid), 404, not_found_detail(sid))
        wait_until(lambda sid=sid: gone(s, sid), timeout=15, what=f"interrupted release of {sid} finished")
    live = {keeper, *held}
    # the previous run's pool and the interrupted releases are destroyed, the held ones re-attached
    wait_settled(s, live)
    for sid in held:
        assert assert_json(api.get(sid), 200)["status"] == "occupied"
    status, logs = run_program(api, held[0], 'print("ok")')
    assert (status, logs) == ("completed", "ok\n")
    assert_keeper_intact(api, keeper, dump, reading)

    for _ in range(CYCLES - half):
        cycle(api, s)
    assert_keeper_intact(api, keeper, dump, reading)
    for sid in held + [keeper]:
        assert api.release(sid).status_code == 200
    for sid in held + [keeper]:
        wait_until(lambda sid=sid: gone(s, sid), timeout=15, what=f"{sid} released")
    assert api.count() == 0
    stop_and_assert_all_gone(s, mounts_before)


def test_agent_killed_while_sandboxd_down(make_server):
    """Manager::Recover → ReattachJail finds no live agent in the sandbox's group
    and rebuilds the jail (EnsureJail): the sandbox comes back "occupied" with
    its files (layers are on the host), in a new jail."""
    mounts_before = host_mounts()
    s = make_server()
    api = s.new_owner()
    key, owner = api.key, api.owner
    keeper, dump, reading = prepare_keeper(api, s)
    other = api.acquire_ok()["local_sandbox_id"]
    old_agent = agent_pid(s.data_dir, keeper)
    other_agent = agent_pid(s.data_dir, other)
    assert old_agent and other_agent

    s.kill9()
    os.kill(old_agent, signal.SIGKILL)
    wait_until(lambda: not group_pids(s.data_dir, keeper), timeout=10, what="the jail's processes gone")
    assert agent_pid(s.data_dir, other) == other_agent  # the other jail survives

    s.start()
    api = s.client(key, owner)
    new_agent = agent_pid(s.data_dir, keeper)
    assert new_agent and new_agent != old_agent
    assert f"recover: rebuilding the jail of {keeper}" in s.log_text(2)
    assert_keeper_intact(api, keeper, dump, reading)
    # the other sandbox was re-attached, not rebuilt
    assert agent_pid(s.data_dir, other) == other_agent
    assert assert_json(api.get(other), 200)["status"] == "occupied"
    status, logs = run_program(api, other, 'print("ok")')
    assert (status, logs) == ("completed", "ok\n")
    wait_settled(s, {keeper, other}, pool=0)

    for sid in (keeper, other):
        assert api.release(sid).status_code == 200
        wait_until(lambda sid=sid: gone(s, sid), timeout=15, what=f"{sid} released")
    wait_settled(s, set(), pool=0)
    assert s.stop() == 0
    assert_all_gone(s, mounts_before)


LONG_RUN = r'''
import time
print("started", flush=True)
time.sleep(300)
'''


def test_agent_death_while_running(make_server):
    mounts_before = host_mounts()
    s = make_server()
    api = s.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    witness = api.acquire_ok()["local_sandbox_id"]
    api.upload_and_initialize(sid, WORKSPACE)
    status, _ = run_program(api, sid, WRITE_DATA, name="write")
    assert status == "completed"
    upload_execution(api, sid, "long", LONG_RUN)
    start_execution(api, sid, "long")

    def started():
        r = api.request("GET", f"/local-sandbox/{sid}/execution-logs", params={"execution_name": "long"})
        return r.status_code == 200 and r.json()["logs"] == "started\n"

    wait_until(started, timeout=20, what="the long execution started")
    agent = agent_pid(s.data_dir, sid)
    assert len(group_pids(s.data_dir, sid)) == 2  # the agent and python
    witness_agent = agent_pid(s.data_dir, witness)

    os.kill(agent, signal.SIGKILL)
    t0 = time.monotonic()
    wait_until(lambda: api.get(sid).json()["status"] == "error", timeout=5, what='status "error"')
    print(f"\nstatus error {time.monotonic() - t0:.2f}s after the agent's death")
    # the whole jail went with its init; the execution did not finish
    wait_until(lambda: not group_pids(s.data_dir, sid), timeout=5, what="the jail's processes gone")
    r = api.request("GET", f"/local-sandbox/{sid}/execution-status", params={"execution_name": "long"})
    assert_json(r, 200, {"status": "failed"})
    assert agent_pid(s.data_dir, witness) == witness_agent
    assert assert_json(api.get(witness), 200)["status"] == "occupied"

    r = api.reset(sid)
    assert r.status_code == 200, r.text
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    new_agent = agent_pid(s.data_dir, sid)
    assert new_agent and new_agent != agent
    # reset discarded the changes; the initialized workspace is there
    names = sorted(m["name"] for m in read_tar(api.dump_bytes(sid)))
    assert names == [".", "./keep", "./keep/a.txt", "./keep/b.bin"], names
    status, logs = run_program(api, sid, 'print(open("/data/keep/a.txt").read(), end="")')
    assert (status, logs) == ("completed", "alpha\n")
    wait_settled(s, {sid, witness}, pool=0)

    for x in (sid, witness):
        assert api.release(x).status_code == 200
        wait_until(lambda x=x: gone(s, x), timeout=15, what=f"{x} released")
    wait_settled(s, set(), pool=0)
    assert s.stop() == 0
    assert_all_gone(s, mounts_before)


def test_restart_after_kill9_in_the_middle_of_cgroup_removal(make_server):
    """PRODUCT BUG (fails today): CgroupTree::Remove deletes a group's v1
    directories one by one (memory, pids, cpu, freezer). A kill -9 of sandboxd
    between two of those rmdirs (while it releases a sandbox or discards a pool
    slot, e.g. during a SIGTERM shutdown cut short) leaves the group in cpu and
    freezer only. Recover lists it (CgroupTree::List includes half-removed
    groups) and destroys it, but CgroupTree::KillAll reads
    pids/<group>/cgroup.procs, which is gone: kNotFound, "recovery failed", and
    sandboxd refuses to start, on every restart, until someone removes the
    directories by hand. Expected: the leftover is removed and sandboxd starts."""
    mounts_before = host_mounts()
    s = make_server(extra_args=["--pool-size", "1"])
    api = s.new_owner()
    key, owner = api.key, api.owner
    live = api.acquire_ok()["local_sandbox_id"]
    wait_settled(s, {live}, pool=1)
    idle = (sandbox_dirs(s) - {live}).pop()
    parent = cgroup_parent(s.data_dir)
    s.kill9()

    # Exactly what the interrupted Remove(idle) leaves: the jail killed before
    # (KillAll), the memory and pids directories removed, cpu and freezer not yet.
    os.kill(agent_pid(s.data_dir, idle), signal.SIGKILL)
    wait_until(lambda: not group_pids(s.data_dir, idle), timeout=10, what="the idle jail's processes gone")
    for hierarchy in ("memory", "pids"):
        (Path("/sys/fs/cgroup") / hierarchy / parent / idle).rmdir()
    left = sorted(p.parent.parent.name for p in cgroup_dirs(s.data_dir) if p.name == idle)
    assert left == ["cpu", "freezer"], left

    s.start()
    api = s.client(key, owner)
    assert assert_json(api.get(live), 200)["status"] == "occupied"
    status, logs = run_program(api, live, 'print("ok")')
    assert (status, logs) == ("completed", "ok\n")
    wait_settled(s, {live}, pool=1)  # the half-removed group is gone (cgroups == dirs)
    assert idle not in cgroup_names(s)

    assert api.release(live).status_code == 200
    wait_until(lambda: gone(s, live), timeout=15, what="released")
    wait_settled(s, set(), pool=1)
    assert s.stop() == 0
    assert_all_gone(s, mounts_before)
