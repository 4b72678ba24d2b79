"""sandboxctl against a real sandboxd: every command a person at a terminal uses,
checked by its exit code, its output and the server state it leaves."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import REPO_ROOT, UUID_RE, tar_files

SANDBOXCTL = Path(os.environ.get("SANDBOXCTL_BIN", str(REPO_ROOT / "build" / "sandboxctl")))

pytestmark = pytest.mark.skipif(not SANDBOXCTL.exists(), reason=f"no sandboxctl at {SANDBOXCTL}")


def ctl(server, key, *args, check_rc=0, cwd=None):
    env = dict(os.environ, SANDBOXD_URL=server.base, SANDBOXD_API_KEY=key)
    env.pop("SANDBOXD_DATA_DIR", None)
    p = subprocess.run([str(SANDBOXCTL), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=60)
    assert p.returncode == check_rc, f"rc={p.returncode}\nstdout={p.stdout}\nstderr={p.stderr}"
    return p


def ctl_json(server, key, *args):
    return json.loads(ctl(server, key, "--json", *args).stdout)


def test_full_lifecycle_with_directories(server, tmp_path):
    key = server.create_key("ctl-owner")["key"]
    acquired = ctl_json(server, key, "acquire", "--servers", "filesystem,git", "--ttl", "600")
    sid = acquired["local_sandbox_id"]
    assert UUID_RE.match(sid)
    assert [s["server_name"] for s in acquired["servers"]] == ["filesystem", "git"]
    assert acquired["ttl_seconds"] == 600

    seed = tmp_path / "seed"
    (seed / "sub").mkdir(parents=True)
    (seed / "hello.txt").write_text("hello\n")
    (seed / "sub" / "data.bin").write_bytes(bytes(range(256)) * 1000)
    os.symlink("hello.txt", seed / "link")
    ctl(server, key, "upload", sid, str(seed))  # packs, uploads, initializes

    out = tmp_path / "out"
    ctl(server, key, "dump", sid, str(out))
    assert (out / "hello.txt").read_text() == "hello\n"
    assert (out / "sub" / "data.bin").read_bytes() == bytes(range(256)) * 1000
    assert os.readlink(out / "link") == "hello.txt"

    archive = tmp_path / "dump.tar.gz"
    ctl(server, key, "dump", sid, str(archive))
    files = tar_files(archive.read_bytes())
    assert files == {"./hello.txt": b"hello\n", "./sub/data.bin": bytes(range(256)) * 1000}

    listed = ctl_json(server, key, "list")
    assert [s["local_sandbox_id"] for s in listed["local_sandboxes"]] == [sid]
    assert ctl_json(server, key, "get", sid)["local_sandbox_id"] == sid
    ctl(server, key, "reset", sid)
    ctl(server, key, "release", sid)
    assert server.client(key).get(sid).status_code == 404


def test_upload_tarball_without_initialize_then_initialize(server, tmp_path):
    key = server.create_key("ctl-tarball")["key"]
    sid = ctl_json(server, key, "acquire", "--servers", "terminal")["local_sandbox_id"]
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("A")
    tarball = tmp_path / "seed.tgz"
    subprocess.run(["tar", "-czf", str(tarball), "-C", str(src), "."], check=True)
    ctl(server, key, "upload", "--no-initialize", sid, str(tarball))
    assert tar_files(server.client(key).dump_bytes(sid)) == {}  # not initialized yet
    ctl(server, key, "initialize", sid)
    assert tar_files(server.client(key).dump_bytes(sid)) == {"./a.txt": b"A"}


def test_errors_are_reported_with_status_and_detail(server, tmp_path):
    key = server.create_key("ctl-errors")["key"]
    missing = "00000000-0000-4000-8000-000000000000"
    p = ctl(server, key, "get", missing, check_rc=1)
    assert f"HTTP 404: Local sandbox {missing} not found" in p.stderr
    p = ctl(server, key, "acquire", "--servers", "filesystem", "--ttl", "5", check_rc=1)
    assert "HTTP 422" in p.stderr and "ttl_seconds" in p.stderr
    p = ctl(server, "sbx_not_a_real_key", "list", check_rc=1)
    assert "HTTP 401: Invalid API key" in p.stderr
    p = ctl(server, key, "acquire", "--servers", "filesystem,nope", check_rc=64)
    assert "nope" in p.stderr
    assert server.client(key).count() == 0  # nothing was created by the failures


def test_keys_create_list_revoke(server):
    admin = server.admin_key
    created = ctl_json(server, admin, "key", "create", "--owner", "carol")
    assert created["owner"] == "carol" and created["key"].startswith("sbx_")
    keys = ctl_json(server, admin, "key", "list")["keys"]
    assert any(k["id"] == created["id"] and k["revoked_at"] is None for k in keys)
    assert all("key" not in k for k in keys)
    ctl(server, created["key"], "list")  # the new key works
    ctl(server, admin, "key", "revoke", created["id"])
    p = ctl(server, created["key"], "list", check_rc=1)
    assert "HTTP 401" in p.stderr
    p = ctl(server, created["key"], "key", "list", check_rc=1)  # revoked and not admin
    assert "HTTP 401" in p.stderr


def test_unreachable_server_exit_code(tmp_path):
    env = dict(os.environ, SANDBOXD_URL="http://127.0.0.1:1", SANDBOXD_API_KEY="sbx_x")
    p = subprocess.run([str(SANDBOXCTL), "list"], env=env, capture_output=True, text=True, timeout=30)
    assert p.returncode == 2
    assert "cannot connect" in p.stderr
