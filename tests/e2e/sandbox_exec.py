"""Running programs in a sandbox through the execution API (for the jail tests).

    status, logs = run_program(api, sid, "print('hi')")

uploads a tar.gz holding main.py (plus any extra files) through
POST /local-sandbox/{id}/execution-upload-url → PUT, starts it with
POST /local-sandbox/{id}/execute, polls GET /execution-logs by byte cursor until
the status is final ("completed" or "failed") and returns (status, logs).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from conftest import CGROUP_ROOT, cgroup_parent, make_tar, sandboxd_bin

FINAL = ("completed", "failed")


def upload_execution(api, sid: str, name: str, program: str, files: dict[str, bytes] | None = None):
    """Uploads main.py (and `files`) as the archive of execution `name`."""
    r = api.request("POST", f"/local-sandbox/{sid}/execution-upload-url", json={"execution_name": name})
    assert r.status_code == 200, (r.status_code, r.text)
    url = r.json()["upload_url"]
    entries = [("main.py", program.encode())]
    entries += [(k, v) for k, v in (files or {}).items()]
    put = api.server.put_object(url, make_tar(entries))
    assert put.status_code == 200, (put.status_code, put.text)


def start_execution(api, sid: str, name: str):
    r = api.request("POST", f"/local-sandbox/{sid}/execute", json={"execution_name": name})
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()


def execution_status(api, sid: str, name: str) -> str:
    r = api.request("GET", f"/local-sandbox/{sid}/execution-status", params={"execution_name": name})
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()["status"]


def wait_execution(api, sid: str, name: str, timeout: float = 60, interval: float = 0.05) -> tuple[str, str]:
    """Follows the logs until the execution is over; returns (status, whole log)."""
    deadline = time.monotonic() + timeout
    cursor = 0
    chunks: list[str] = []
    while True:
        r = api.request(
            "GET", f"/local-sandbox/{sid}/execution-logs", params={"execution_name": name, "cursor": cursor}
        )
        assert r.status_code == 200, (r.status_code, r.text)
        body = r.json()
        chunks.append(body["logs"])
        assert body["cursor"] >= cursor, body
        cursor = body["cursor"]
        if body["status"] in FINAL and not body["logs"]:
            # Final and nothing more to read (a poll that returned data may
            # have been cut at the chunk size: read until it comes back empty).
            return body["status"], "".join(chunks)
        if time.monotonic() >= deadline:
            pytest.fail(
                f"execution {name!r} in {sid} still {body['status']!r} after {timeout}s; log so far:\n"
                + "".join(chunks)[-4000:]
            )
        if not body["logs"]:
            time.sleep(interval)


_counter = 0


def run_program(
    api,
    sid: str,
    program: str,
    name: str | None = None,
    files: dict[str, bytes] | None = None,
    timeout: float = 60,
) -> tuple[str, str]:
    """Runs `program` as main.py in sandbox `sid`; returns (status, logs)."""
    global _counter
    if name is None:
        _counter += 1
        name = f"run-{_counter}"
    upload_execution(api, sid, name, program, files)
    start_execution(api, sid, name)
    return wait_execution(api, sid, name, timeout=timeout)


def export_artifacts(api, sid: str, name: str) -> bytes:
    """The execution directory /exec/<name> as a tar.gz (export-artifacts, then GET)."""
    r = api.request("POST", f"/local-sandbox/{sid}/export-artifacts", json={"execution_name": name})
    assert r.status_code == 200, (r.status_code, r.text)
    got = api.server.get_object(r.json()["download_url"])
    assert got.status_code == 200, (got.status_code, got.text)
    return got.content


def probe_lines(logs: str) -> dict[str, str]:
    """{probe: result} from lines "PROBE <name> <result...>" of a log."""
    out = {}
    for line in logs.splitlines():
        if line.startswith("PROBE "):
            _, key, *rest = line.split(" ", 2)
            out[key] = rest[0] if rest else ""
    return out


# --------------------------------------------------------------------------- jails seen from the host


def sandbox_cgroup(data_dir: Path, sid: str, controller: str = "pids") -> Path:
    """The sandbox's group in one v1 hierarchy."""
    return CGROUP_ROOT / controller / cgroup_parent(data_dir) / sid


def group_pids(data_dir: Path, sid: str) -> list[int]:
    try:
        text = (sandbox_cgroup(data_dir, sid) / "cgroup.procs").read_text()
    except FileNotFoundError:
        return []
    return sorted(int(x) for x in text.split())


def is_ns_init(pid: int) -> bool:
    """True if `pid` is pid 1 of its own pid namespace ("NSpid: <host pid> 1")."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return line.endswith("\t1")
    except OSError:
        pass
    return False


def agent_pid(data_dir: Path, sid: str) -> int | None:
    """The host pid of the sandbox's agent (pid 1 of the jail), or None."""
    found = [p for p in group_pids(data_dir, sid) if is_ns_init(p)]
    assert len(found) <= 1, found
    return found[0] if found else None


def agent_binary() -> Path:
    """The sandbox-agent that sandboxd runs: $SANDBOXD_AGENT_PATH (sandboxd's
    --agent-path environment variable) or the one beside the sandboxd binary."""
    if os.environ.get("SANDBOXD_AGENT_PATH"):
        return Path(os.environ["SANDBOXD_AGENT_PATH"]).resolve()
    return sandboxd_bin().resolve().parent / "sandbox-agent"


def agent_processes(data_dir: Path) -> dict[int, str]:
    """{host pid: sandbox id} of every live process running the agent binary
    whose cgroup is below this instance's parent group (any sandbox id), found
    by scanning /proc (not through the cgroups' own process lists)."""
    binary = agent_binary()
    st = binary.stat()
    parent = cgroup_parent(data_dir)
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            exe = os.stat(f"/proc/{entry}/exe")
            # the same file, or the binary as it was before a rebuild replaced it
            if (exe.st_dev, exe.st_ino) != (st.st_dev, st.st_ino) and os.readlink(
                f"/proc/{entry}/exe"
            ) != f"{binary} (deleted)":
                continue
            cgroups = Path(f"/proc/{entry}/cgroup").read_text()
        except OSError:
            continue  # gone, a zombie, or a kernel thread
        for line in cgroups.splitlines():
            _, _, path = line.split(":", 2)
            parts = path.strip("/").split("/")
            if parent in parts:
                i = parts.index(parent)
                out[int(entry)] = parts[i + 1] if i + 1 < len(parts) else ""
                break
    return out
