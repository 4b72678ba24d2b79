"""Hostile programs inside a sandbox's jail, run through the execution API.

One sandbox runs a single main.py that tries many escapes and prints one line
per probe ("PROBE <name> <outcome>", the outcome being the errno name of the
refusal); the tests assert each outcome exactly. The fork bomb, the memory bomb
and the /tmp filler run as executions of their own. After each, sandboxd must
still be healthy: GET /healthz answers 200 and a witness sandbox of another
owner still runs a program.

The module's sandboxd runs with small limits so that the bombs end fast:
64 pids, 64 MiB of memory and an 8 MiB /tmp per sandbox.

A detached fork bomb (processes that leave their step's process group) is
cleared by reset, which stops every process of the sandbox but its agent.
"""

from __future__ import annotations

import json
import os
import stat
import tarfile
import time
from pathlib import Path

import pytest

from conftest import Sandboxd, _new_root, assert_json, make_tar, read_tar, wait_until
from sandbox_exec import agent_pid, export_artifacts, group_pids, probe_lines, run_program, sandbox_cgroup

PIDS = 64
# The suite runs the AddressSanitizer build, whose idle agent (every server
# linked in, ASan's shadow and allocator) is charged about 96 MiB; the
# limit leaves the memory bomb room to be caught by it, not by the start.
MEMORY_MB = 256
TMP_MB = 8
UID_BASE = 1_000_000_000

# Masked /proc entries (jail/mounts.cc): bind mounts of /dev/null where the
# kernel has them.
# The programs run inside the sandbox, one file each.
HOSTILE = Path(__file__).parent / "hostile"

MASKED_PROC = [
    "kcore", "sysrq-trigger", "timer_list", "keys", "kallsyms", "kmsg", "sched_debug",
    "latency_stats", "config.gz", "kpagecount", "kpageflags", "kpagecgroup",
]

PROBES = (HOSTILE / 'probes.py').read_text()

FORK_BOMB = (HOSTILE / 'fork_bomb.py').read_text()

MEMORY_BOMB = (HOSTILE / 'memory_bomb.py').read_text()

TMP_FILL = (HOSTILE / 'tmp_fill.py').read_text()

HELLO = 'import os; print("alive", os.getpid() > 1)\n'


def host_ip() -> str:
    """The host's address on its default route (never the loopback)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.123", 9))  # no packet is sent for a UDP connect
            ip = s.getsockname()[0]
        except OSError:
            ip = ""
    if not ip or ip.startswith("127."):
        pytest.skip("the host has no non-loopback IPv4 address")
    return ip


@pytest.fixture(scope="module")
def server():
    s = Sandboxd(
        _new_root(),
        extra_args=["--sandbox-pids", str(PIDS), "--sandbox-memory-mb", str(MEMORY_MB), "--sandbox-tmp-mb", str(TMP_MB)],
    )
    try:
        s.start()
        yield s
    finally:
        s.cleanup()


@pytest.fixture(scope="module")
def witness(server):
    """A sandbox of another owner that must keep working whatever the hostile ones do."""
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    return api, sid


def assert_healthy(server, witness):
    assert server.proc is not None and server.proc.poll() is None, "sandboxd exited"
    r = server.raw().get(f"{server.base}/healthz", timeout=5)
    assert r.status_code == 200, (r.status_code, r.text)
    assert r.json().get("status") == "ok", r.text
    api, sid = witness
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    status, logs = run_program(api, sid, HELLO, timeout=60)
    assert (status, logs) == ("completed", "alive True\n")


@pytest.fixture(scope="module")
def victim(server):
    """Another sandbox with a file in its lower layer and one in its upper layer."""
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    api.upload_and_initialize(sid, make_tar([("victim-secret.txt", b"lower secret")]))
    status, _ = run_program(api, sid, 'open("/data/upper-secret.txt", "w").write("upper secret")\n')
    assert status == "completed"
    layers = json.loads((server.sandbox_dir(sid) / "layers.json").read_text())
    layer_dir = server.sandbox_dir(sid) / "layers"
    assert (layer_dir / layers["lower"] / "victim-secret.txt").is_file()
    assert (layer_dir / layers["upper"] / "upper-secret.txt").is_file()
    return api, sid, layers


@pytest.fixture(scope="module")
def probes(server, victim, witness):
    """Runs PROBES once in a hostile sandbox: (api, sid, {probe: outcome}, params, logs)."""
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    _, victim_sid, layers = victim
    secret = server.root / "host-secret.txt"
    secret.write_text("host secret\n")
    secret.chmod(0o644)
    victim_dir = server.sandbox_dir(victim_sid)
    paths = {
        "data_dir": str(server.data_dir),
        "state_db": str(server.data_dir / "state.db"),
        "admin_key": str(server.data_dir / "admin.key"),
        "host_file": str(secret),
        "own_logs": str(server.sandbox_dir(sid) / "executions" / "probes.log"),
        "victim_upper": str(victim_dir / "layers" / layers["upper"] / "upper-secret.txt"),
        "victim_lower": str(victim_dir / "layers" / layers["lower"] / "victim-secret.txt"),
        "etc_shadow": "/etc/shadow",
        "root_bashrc": "/root/.bashrc",
        "dev_vda": "/dev/vda",
    }
    for key in ("host_file", "victim_upper", "victim_lower", "data_dir", "state_db"):
        assert Path(paths[key]).exists(), key  # they do exist on the host
    setuid = [p for p in ("/usr/bin/su", "/usr/bin/mount", "/usr/bin/umount") if Path(p).exists()]
    params = {
        "paths": paths,
        "host_pid": server.proc.pid,
        "port": int(server.addr.rsplit(":", 1)[1]),
        "host_ip": host_ip(),
        "masked": MASKED_PROC,
        "setuid": setuid,
    }
    agent_before = agent_pid(server.data_dir, sid)
    status, logs = run_program(
        api, sid, PROBES, name="probes", files={"params.json": json.dumps(params).encode()}, timeout=120
    )
    found = probe_lines(logs)
    assert status == "completed", logs[-3000:]
    assert found.get("done") == "yes", logs[-3000:]
    assert agent_pid(server.data_dir, sid) == agent_before  # the agent survived kill(1, SIGKILL)
    assert_healthy(server, witness)
    return api, sid, found, params, logs


def test_host_files_unreachable(server, witness, probes):
    _, _, found, params, _ = probes
    for key in params["paths"]:
        assert found["read_" + key] == "ENOENT", (key, found["read_" + key])
    assert found["list_sys"] == "ENOENT"  # no /sys at all, hence no cgroupfs either
    assert found["list_cgroupfs"] == "ENOENT"
    assert_healthy(server, witness)


def test_host_processes_invisible(server, witness, probes):
    api, sid, found, params, _ = probes
    pids = json.loads(found["proc_pids"])
    # the agent (pid 1) and this program: nothing of the host, nothing of other sandboxes
    assert pids == [1, int(found["self_pid"])], pids
    assert params["host_pid"] not in pids
    assert found["kill_host_pid"] == "ESRCH"
    assert found["proc_host_pid"] == "ENOENT"
    # kill(1, SIGKILL) from inside is ignored by the namespace's init
    assert found["kill_agent"] == "OK"
    assert found["agent_state"] in ("S", "R"), found["agent_state"]
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    assert_healthy(server, witness)


def test_system_is_read_only(server, witness, probes):
    _, _, found, _, _ = probes
    assert found["write_usr"] == "EROFS"
    # an existing file of the host's root (unmapped in the jail): the permission check comes first
    assert found["write_usr_bin"] == "EACCES"
    assert found["write_root"] == "EROFS"
    assert found["mkdir_root"] == "EROFS"
    assert found["write_etc"] == "EACCES"
    assert found["create_etc"] == "EROFS"
    # the writable places are writable
    assert found["create_data"] == "OK" and found["create_tmp"] == "OK"
    assert found["mknod"] == "EPERM"
    assert not Path("/usr/jail-probe").exists() and not Path("/jail-probe").exists()
    assert_healthy(server, witness)


def test_network_is_private_loopback(server, witness, probes):
    _, _, found, _, _ = probes
    # sandboxd's port on 127.0.0.1 is the jail's own loopback, where nothing listens
    assert found["tcp_loopback_port"] == "ECONNREFUSED"
    assert found["tcp_host_address"] == "ENETUNREACH"
    assert found["tcp_external"] == "ENETUNREACH"
    assert found["udp_external"] == "ENETUNREACH"
    assert json.loads(found["interfaces"]) == ["lo"]
    assert_healthy(server, witness)


@pytest.mark.parametrize(
    "probe",
    [
        "mount", "umount", "unshare_user", "unshare_mount", "setns", "chroot", "pivot_root",
        "ptrace_attach_1", "init_module", "finit_module", "open_by_handle_at", "bpf", "keyctl",
        "add_key", "perf_event_open", "kexec_load", "reboot", "swapon", "userfaultfd",
        "io_uring_setup", "process_vm_readv", "syslog", "sethostname", "setgroups",
    ],
)
def test_privileged_calls_refused(server, probes, probe):
    _, _, found, _, _ = probes
    assert found[probe] == "EPERM", (probe, found[probe])


def test_only_root_is_mapped(server, probes):
    _, _, found, _, _ = probes
    # uid 1000 does not exist in the jail's user namespace (only 0 is mapped)
    assert found["setuid_1000"] == "EINVAL"


def test_proc_escapes(server, witness, probes):
    api, sid, found, params, _ = probes
    root = json.loads(found["root_listing"])
    # the jail's own tree, plus the host's top-level links/dirs into /usr that exist here
    mirrored = [n for n in ("bin", "sbin", "lib", "lib32", "lib64", "libx32") if os.path.lexists("/" + n)]
    expected = ["data", "dev", "etc", "exec", "home", "mnt", "opt", "proc", "root", "run", "srv", "tmp", "usr", "var"]
    assert root == sorted(expected + mirrored), root
    # the agent is not dumpable: its /proc/1/{root,cwd,fd,environ,mem} are closed to the sandbox
    for probe in ("proc1_root", "proc1_cwd", "proc1_fd", "proc1_environ", "proc1_mem"):
        assert found[probe] == "EACCES", (probe, found[probe])
    # ".." of the root is the root, however it is reached
    assert json.loads(found["root_dotdot"]) == root
    assert json.loads(found["self_root_dotdot"]) == root
    # /proc/sys is a read-only bind
    assert found["proc_sys_hostname"] == "EROFS"
    assert found["proc_sys_drop_caches"] == "EROFS"
    assert found["proc_sys_core_pattern"] == "EROFS"
    # masked entries: /dev/null (char 1:3, empty) where the kernel has them, absent otherwise
    for entry in MASKED_PROC:
        got = found["masked_" + entry]
        if os.path.exists(f"/proc/{entry}"):
            assert got.startswith("OK "), (entry, got)
            mode, major, minor, size, read = json.loads(got[3:])
            assert stat.S_ISCHR(int(mode, 8)) and (major, minor) == (1, 3) and size == 0 and read == 0, (entry, got)
        else:
            assert got == "ENOENT", (entry, got)

    # mountinfo: the host's data dir shows only where the kernel must name it:
    # the /data overlay's layer options and the source root of the /exec bind,
    # and only this sandbox's own directory.
    data_dir = os.path.realpath(params["paths"]["data_dir"])
    own = f"{data_dir}/sandboxes/{sid}/"
    mounts = {}
    for line in json.loads(found["mountinfo"]).splitlines():
        fields = line.split()
        sep = fields.index("-")
        mounts[fields[4]] = {"root": fields[3], "opts": fields[5], "fstype": fields[sep + 1],
                             "source": fields[sep + 2], "super": fields[sep + 3]}
    leaks = []
    for point, m in mounts.items():
        for field, text in m.items():
            if data_dir in text:
                leaks.append((point, field))
    assert sorted(leaks) == [("/data", "super"), ("/exec", "root")], leaks
    assert mounts["/exec"]["root"] == own + "exec"
    layer_opts = [o for o in mounts["/data"]["super"].split(",") if data_dir in o]
    assert sorted(o.split("=", 1)[0] for o in layer_opts) == ["lowerdir", "upperdir", "workdir"], layer_opts
    assert all(o.split("=", 1)[1].startswith(own + "layers/") for o in layer_opts), layer_opts
    assert mounts["/data"]["fstype"] == "overlay"
    # read-only where it matters, and no host root anywhere
    for point in ("/", "/usr", "/proc/sys", "/dev"):
        assert "ro" in mounts[point]["opts"].split(","), (point, mounts[point])
    assert mounts["/"]["fstype"] == "tmpfs"
    assert all(m["root"] != "/" or m["fstype"] != "ext4" for m in mounts.values()), mounts
    assert_healthy(server, witness)


def test_credentials(server, witness, probes):
    api, sid, found, _, _ = probes
    status = json.loads(found["status"])
    for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert status[cap] == "0000000000000000", (cap, status[cap])
    assert status["NoNewPrivs"] == "1"
    assert status["Seccomp"] == "2"  # filter mode
    assert status["Uid"].split() == ["0"] * 4 and status["Gid"].split() == ["0"] * 4
    uid_map = json.loads(found["uid_map"]).split()
    gid_map = json.loads(found["gid_map"]).split()
    assert len(uid_map) == 3 and uid_map[0] == "0" and uid_map[2] == "1", uid_map
    host_uid = int(uid_map[1])
    assert UID_BASE <= host_uid < UID_BASE + 1_000_000, host_uid
    assert gid_map == [str(0), str(host_uid), "1"], gid_map
    # the same uid as seen from the host: the sandbox's layers.json and its agent
    layers = json.loads((server.sandbox_dir(sid) / "layers.json").read_text())
    assert layers["uid"] == host_uid
    pid = agent_pid(server.data_dir, sid)
    host_status = Path(f"/proc/{pid}/status").read_text()
    uids = [line.split()[1:] for line in host_status.splitlines() if line.startswith("Uid:")][0]
    assert uids == [str(host_uid)] * 4, uids
    assert_healthy(server, witness)


def test_setuid_binaries_do_not_elevate(server, witness, probes):
    _, _, found, params, _ = probes
    if not params["setuid"]:
        pytest.skip("no setuid binaries on this host")
    for path in params["setuid"]:
        is_setuid, owner = json.loads(found["setuid_stat_" + os.path.basename(path)])
        # still setuid, but owned by the host's root, which the jail's user namespace does not map
        assert is_setuid and owner == 65534, (path, is_setuid, owner)
    assert json.loads(found["usr_flags"]) == [True, True]  # ro, nosuid
    if "/usr/bin/mount" in params["setuid"]:
        code, err = json.loads(found["run_mount"])
        assert code == 32 and "permission denied" in err, (code, err)
    if "/usr/bin/su" in params["setuid"]:
        code, planted = json.loads(found["run_su"])
        assert code != 0 and planted is False, (code, planted)
    if "/usr/bin/umount" in params["setuid"]:
        code, still_mounted = json.loads(found["run_umount"])
        assert code != 0 and still_mounted is True, (code, still_mounted)
    assert not Path("/usr/su-was-here").exists()
    assert_healthy(server, witness)


def test_fork_bomb_bounded_by_pids_limit(server, witness):
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    assert (sandbox_cgroup(server.data_dir, sid) / "pids.max").read_text().strip() == str(PIDS)
    started = time.monotonic()
    status, logs = run_program(api, sid, FORK_BOMB, name="forkbomb", timeout=120)
    assert status == "completed", logs
    lines = dict(line.split(" ", 1) for line in logs.splitlines())
    before = int(lines["BEFORE"])
    forks, err = lines["FORKS"].split()
    assert err == "EAGAIN", logs
    # every task slot up to the limit was used, and not one more
    assert int(forks) + before == PIDS, logs
    assert int(forks) < PIDS
    assert lines["AFTER"] == "7"
    assert time.monotonic() - started < 60
    # pids.max held: the group never exceeded it
    events = sandbox_cgroup(server.data_dir, sid) / "pids.events"
    if events.exists():
        assert int(events.read_text().split()[1]) >= 1  # "max N": forks refused at the limit
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    status, logs = run_program(api, sid, HELLO)
    assert (status, logs) == ("completed", "alive True\n")
    assert_healthy(server, witness)


DETACHED_FORK_BOMB = r"""
import os, time
# A grandchild leaves the step's process group (setsid) and keeps every pid
# slot of the jail taken, refilling any that frees up.
child = os.fork()
if child == 0:
    os.setsid()
    if os.fork() == 0:
        while True:
            try:
                if os.fork() == 0:
                    time.sleep(3600)
                    os._exit(0)
            except OSError:
                time.sleep(0.005)
    os._exit(0)
os.waitpid(child, 0)
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    if sum(1 for p in os.listdir("/proc") if p.isdigit()) >= %d:
        break
    time.sleep(0.05)
print("exhausted", sum(1 for p in os.listdir("/proc") if p.isdigit()), flush=True)
""" % (PIDS - 1)


def test_detached_fork_bomb_is_cleared_by_reset(server, witness):
    """Processes that leave their step's process group (setsid) outlive the
    execution (later issues keep long-running processes alive on purpose), so
    a detached fork bomb can use up the jail's pids. Then a new execution is
    refused with 503 and a reason, and POST /reset — which stops every
    process of the sandbox but its agent — gives the sandbox back."""
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    try:
        agent = agent_pid(server.data_dir, sid)
        status, logs = run_program(api, sid, DETACHED_FORK_BOMB, name="detached", timeout=60)
        assert status == "completed", logs
        assert logs.startswith("exhausted "), logs
        wait_until(lambda: len(group_pids(server.data_dir, sid)) >= PIDS - 1, timeout=10, what="the bomb to fill")
        upload = api.http.post(f"/local-sandbox/{sid}/execution-upload-url", json={"execution_name": "late"})
        assert server.put_object(upload.json()["upload_url"], make_tar([("main.py", HELLO.encode())])).status_code == 200
        r = api.http.post(f"/local-sandbox/{sid}/execute", json={"execution_name": "late"})
        assert r.status_code == 503, r.text
        assert r.json()["detail"].startswith("The sandbox cannot start another process (")
        assert r.json()["detail"].endswith("); if its process limit is used up, reset the sandbox")

        assert api.reset(sid).status_code == 200

        def only_agent_left():
            pids = group_pids(server.data_dir, sid)
            assert pids == [agent], f"{len(pids)} processes still in the jail after reset"
            return True

        wait_until(only_agent_left, timeout=10, what="the detached processes killed")
        status, logs = run_program(api, sid, HELLO)
        assert (status, logs) == ("completed", "alive True\n")
    finally:
        assert api.release(sid).status_code == 200
        wait_until(lambda: not server.sandbox_dir(sid).exists(), timeout=20, what="released")
    assert_healthy(server, witness)


def test_programs_go_before_the_agent_when_memory_runs_out(server):
    """A sandbox's programs carry oom_score_adj 500, the agent 0: a full
    memory cgroup loses the program, never the agent serving the tools."""
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    status, logs = run_program(api, sid, 'print(open("/proc/self/oom_score_adj").read().strip())\n')
    assert (status, logs) == ("completed", "500\n")
    agent = agent_pid(server.data_dir, sid)
    assert Path(f"/proc/{agent}/oom_score_adj").read_text() == "0\n"
    assert api.release(sid).status_code == 200


def test_memory_bomb_killed(server, witness):
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    memcg = sandbox_cgroup(server.data_dir, sid, "memory")
    assert int((memcg / "memory.limit_in_bytes").read_text()) == MEMORY_MB << 20
    agent_before = agent_pid(server.data_dir, sid)
    status, logs = run_program(api, sid, MEMORY_BOMB, name="membomb", timeout=120)
    assert status == "failed", logs[-2000:]
    assert logs.endswith("sandbox-agent: python3 was killed by signal 9\n"), logs[-2000:]
    assert "NOT KILLED" not in logs
    reached = [int(line.split()[1]) for line in logs.splitlines() if line.startswith("MiB ")]
    assert reached and 8 <= reached[-1] < MEMORY_MB, reached[-3:]
    oom = dict(line.split() for line in (memcg / "memory.oom_control").read_text().splitlines())
    if "oom_kill" in oom:
        assert int(oom["oom_kill"]) >= 1, oom
    # only the program died: same agent, same status, and it runs the next one
    assert agent_pid(server.data_dir, sid) == agent_before
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    r = api.request("GET", f"/local-sandbox/{sid}/execution-status", params={"execution_name": "membomb"})
    assert_json(r, 200, {"status": "failed"})
    status, logs = run_program(api, sid, HELLO)
    assert (status, logs) == ("completed", "alive True\n")
    assert_healthy(server, witness)


def test_tmp_fill_stops_at_limit(server, witness):
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    status, logs = run_program(api, sid, TMP_FILL, name="tmpfill", timeout=120)
    assert status == "completed", logs
    lines = dict(line.split(" ", 1) for line in logs.splitlines())
    total, err = lines["TMP"].split()
    assert err == "ENOSPC", logs
    assert (TMP_MB << 20) - (256 << 10) <= int(total) <= TMP_MB << 20, total
    assert int(lines["FREE"]) < 64 << 10
    assert int(lines["FREE_AFTER"]) >= (TMP_MB << 20) - (256 << 10)
    assert assert_json(api.get(sid), 200)["status"] == "occupied"
    assert_healthy(server, witness)


PLANT_LINKS = r"""
import json, os
P = json.load(open("params.json"))
os.symlink("/etc/shadow", "shadow")
os.symlink(P["host_file"], "hostfile")
os.symlink("../../../../../../..", "up")
os.symlink("/proc/1/root", "agentroot")
os.link("main.py", "hardlink.py")
open("result.txt", "w").write("made inside\n")
print("planted", flush=True)
"""


def test_export_artifacts_does_not_follow_links(server, witness):
    """Links planted in /exec/<name> are exported as links: nothing of the host
    (or of the agent) is read through them."""
    api = server.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    secret = server.root / "artifact-secret.txt"
    secret.write_text("host secret\n")
    params = {"host_file": str(secret)}
    status, logs = run_program(
        api, sid, PLANT_LINKS, name="links", files={"params.json": json.dumps(params).encode()}
    )
    assert (status, logs) == ("completed", "planted\n")
    members = {m["name"].removeprefix("./"): m for m in read_tar(export_artifacts(api, sid, "links"))}
    links = {name: m.get("linkname") for name, m in members.items() if m["type"] == tarfile.SYMTYPE}
    assert links == {
        "shadow": "/etc/shadow",
        "hostfile": str(secret),
        "up": "../../../../../../..",
        "agentroot": "/proc/1/root",
    }, links
    assert sorted(members) == [".", "agentroot", "hardlink.py", "hostfile", "main.py", "params.json",
                               "result.txt", "shadow", "up"], sorted(members)
    assert members["result.txt"]["data"] == b"made inside\n"
    assert members["hardlink.py"]["data"] == PLANT_LINKS.encode()  # a hard link is packed as a copy
    for name, m in members.items():
        assert b"host secret" not in m.get("data", b""), name
    assert_healthy(server, witness)
