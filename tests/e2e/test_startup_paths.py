"""Paths sandboxd is given, relative, absolute or through symlinks, by flag or by
environment: each works, and one that cannot work stops sandboxd at start
with a message naming its flag (never an error at the first acquire)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import httpx
import pytest

from conftest import cgroup_dirs, cgroup_parent, destroy_jails, sandboxd_bin, wait_until


@pytest.fixture
def workdir():
    root = Path(tempfile.mkdtemp(prefix="sandboxd-paths-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SANDBOXD_")}
    env.update(extra)
    return env


def run_until_listening(cwd: Path, data_dir: Path, args: list[str], env: dict):
    """Starts sandboxd in `cwd`; returns (process, base URL, log path) once listen.addr is written."""
    log = cwd / "sandboxd.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen([str(sandboxd_bin()), "--listen", "127.0.0.1:0", *args], cwd=cwd, env=env,
                                stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def listening():
        assert proc.poll() is None, f"sandboxd exited with {proc.returncode}:\n{log.read_text()}"
        f = data_dir / "listen.addr"
        return f.is_file() and f.read_text().strip()

    addr = wait_until(listening, 30, what="listen.addr")
    return proc, f"http://{addr}", log


def stop(proc, data_dir: Path):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    destroy_jails(data_dir)


def acquire_and_call(base: str, data_dir: Path):
    """A warm sandbox from the pool and a tool call in it: the overlay layers
    below the data dir were mounted."""
    key = (data_dir / "admin.key").read_text().strip()
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
        wait_until(lambda: c.get("/healthz").json()["pool"]["idle"] >= 1, 60, what="a warm sandbox")
        r = c.post("/local-sandbox", json={"server_names": ["filesystem"]})
        assert r.status_code == 201, r.text
        url = r.json()["servers"][0]["mcp_server_url"]
        h = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        init = c.post(url, headers=h, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        assert init.status_code == 200, init.text
        h["Mcp-Session-Id"] = init.headers["mcp-session-id"]
        call = c.post(url, headers=h, json={"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                            "params": {"name": "list_allowed_directories", "arguments": {}}})
        assert call.status_code == 200, call.text
        assert call.json()["result"]["content"] == [{"type": "text", "text": "Allowed directories:\n/data"}]
        assert c.delete(f"/local-sandbox/{r.json()['local_sandbox_id']}").status_code == 200


def test_a_relative_data_dir_from_the_flag(workdir):
    data = workdir / "state" / "data"
    proc, base, log = run_until_listening(workdir, data, ["--data-dir", "state/./data", "--pool-size", "1"],
                                          clean_env())
    try:
        acquire_and_call(base, data)
        # Logged as the absolute path it was resolved to.
        assert f"data dir {data})" in log.read_text()
    finally:
        stop(proc, data)
    assert cgroup_dirs(data) == []


def test_a_relative_data_dir_from_the_environment(workdir):
    data = workdir / "envdata"
    proc, base, _ = run_until_listening(workdir, data, ["--pool-size", "1"],
                                        clean_env(SANDBOXD_DATA_DIR="envdata"))
    try:
        acquire_and_call(base, data)
    finally:
        stop(proc, data)


def test_a_symlinked_data_dir_is_used_through_its_target(workdir):
    real = workdir / "real"
    real.mkdir()
    (workdir / "link").symlink_to("real")
    proc, base, _ = run_until_listening(workdir, real, ["--data-dir", "link", "--pool-size", "1"], clean_env())
    try:
        acquire_and_call(base, real)
        # One cgroup parent per real directory, whichever name reached it.
        assert cgroup_parent(workdir / "link") == cgroup_parent(real)
        assert any(d.name == cgroup_parent(real) for d in cgroup_dirs(real))
    finally:
        stop(proc, real)


@pytest.mark.parametrize(
    "args,env,flag,why",
    [
        (["--data-dir", "a,b"], {}, "--data-dir 'a,b'", "which overlayfs cannot take in a layer path"),
        ([], {"SANDBOXD_DATA_DIR": "x:y"}, "--data-dir 'x:y'", "which overlayfs cannot take in a layer path"),
        (["--data-dir", "plain-file"], {}, "--data-dir 'plain-file'", "cannot create it"),
        (["--data-dir", "plain-file/below"], {}, "--data-dir 'plain-file/below'", "cannot create it"),
        (["--agent-path", "no-agent-here"], {}, "--agent-path 'no-agent-here'", "no sandbox-agent there"),
        (["--server-settings", "missing.json"], {}, "--server-settings 'missing.json'", "No such file"),
    ],
)
def test_a_path_that_cannot_work_stops_sandboxd_naming_its_flag(workdir, args, env, flag, why):
    (workdir / "plain-file").write_text("x")
    given = "--data-dir" in args or "SANDBOXD_DATA_DIR" in env
    base = [] if given else ["--data-dir", "d"]
    p = subprocess.run([str(sandboxd_bin()), "--listen", "127.0.0.1:0", *base, *args], cwd=workdir,
                       env=clean_env(**env), capture_output=True, text=True, timeout=30)
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    out = p.stdout + p.stderr
    assert flag in out and why in out, out
    # It stopped before opening any state: no store, no key, nothing listened.
    assert [p.name for p in workdir.rglob("*") if p.name in ("state.db", "admin.key", "listen.addr")] == []
