"""Fixtures for the sandboxd end-to-end suite.

Every test talks to a real sandboxd process listening on loopback, started in a
fresh temporary data directory:

    <root>/            tempfile.mkdtemp("sandboxd-e2e-")
      data/            --data-dir (state.db, admin.key, listen.addr, sandboxes/<id>/)
      clock            --test-clock-file (seconds added to the wall clock)
      sandboxd-N.log   stdout+stderr of the N-th start

`Sandboxd` starts/stops/restarts/kill -9s one such process; `Api` is a thin
client for one API key. Module-scoped `server` is shared by the tests of one
file (each test gets its own owner, so they do not see each other's sandboxes);
`make_server` gives a private server with extra flags (limits, reaper interval,
public URL) for tests that need them or that move the test clock.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Callable, Iterable

import httpx
import pytest

# Tests import these from here, as they did before they moved out.
from archives import make_tar, notebook_archive, read_tar, tar_files, tar_names, tinfo  # noqa: F401
from jails import CGROUP_ROOT, cgroup_dirs, cgroup_parent, destroy_jails, jail_pids  # noqa: F401

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BIN = REPO_ROOT / "build" / "sandboxd"
REFERENCE_OPENAPI = Path(
    os.environ.get(
        "SANDBOXD_REFERENCE_OPENAPI",
        str(REPO_ROOT.parent / "shared" / "reference" / "local-sandbox-openapi.json"),
    )
)

START_TIMEOUT = float(os.environ.get("SANDBOXD_START_TIMEOUT", "20"))
STOP_TIMEOUT = 10.0
HTTP_TIMEOUT = 30.0

# The LocalSandboxMCPServer enum of the reference, in its order.
ALL_SERVERS = [
    "filesystem",
    "git",
    "terminal",
    "desktop-commander",
    "arxiv",
    "excel",
    "word",
    "powerpoint",
    "code-executor",
    "code-runner",
    "pdf-tools",
    "google_cloud",
    "poste_email_toolathlon",
    "canvas",
    "localmemory",
    "playwright",
]

# Fields of the reference schemas, in the reference order.
ACQUIRE_KEYS = ["local_sandbox_id", "status", "benchmark", "servers", "message"]
INFO_KEYS = ["local_sandbox_id", "created_at", "status", "benchmark", "servers"]
SERVER_KEYS = [
    "server_name",
    "id",
    "mcp_server_url",
    "status",
    "benchmark",
    "updated_at",
    "metadata",
    "auth_data",
    "tags",
]
# sandboxd's additions, served after the reference fields (not in the reference
# schemas; FastAPI's response_model would not emit them). They make the TTL and
# the test account visible, as the brief asks ("null ttl shown", "email echoed").
ACQUIRE_EXT = ["created_at", "test_account_email", "ttl_seconds", "expires_at"]
INFO_EXT = ["test_account_email", "ttl_seconds", "expires_at"]

ISO8601_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$")
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


def sandboxd_bin() -> Path:
    return Path(os.environ.get("SANDBOXD_BIN", str(DEFAULT_BIN)))


def served_servers() -> list[str]:
    """The servers the build under test has, in enum order: what
    `sandbox-agent --list-servers` (beside sandboxd, as sandboxd finds it) says."""
    agent = sandboxd_bin().resolve().parent / "sandbox-agent"
    out = subprocess.run([str(agent), "--list-servers"], capture_output=True, text=True, timeout=30, check=True)
    listed = out.stdout.split()
    return [name for name in ALL_SERVERS if name in listed]


def release_message(sandbox_id: str) -> str:
    return (
        f"Local sandbox release started for {sandbox_id}: "
        "it will be released asynchronously in background."
    )


def not_found_detail(sandbox_id: str) -> dict:
    return {"detail": f"Local sandbox {sandbox_id} not found"}


def wait_until(pred: Callable[[], object], timeout: float, interval: float = 0.05, what: str = "condition"):
    """Polls `pred` until it returns a truthy value; returns that value or fails."""
    deadline = time.monotonic() + timeout
    last_exc = None
    while True:
        try:
            value = pred()
            if value:
                return value
        except AssertionError as exc:  # a predicate may assert
            last_exc = exc
        if time.monotonic() >= deadline:
            msg = f"timed out after {timeout}s waiting for {what}"
            if last_exc is not None:
                msg += f" (last: {last_exc})"
            pytest.fail(msg)
        time.sleep(interval)


def reserve_port() -> int:
    """A port that was free a moment ago (bound and released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------- client


class Api:
    """The Local Sandbox API as seen by one API key."""

    def __init__(self, server: "Sandboxd", key: str | None, owner: str | None = None):
        self.server = server
        self.key = key
        self.owner = owner
        headers = {"Authorization": f"Bearer {key}"} if key is not None else {}
        self.http = httpx.Client(base_url=server.base, headers=headers, timeout=HTTP_TIMEOUT)

    def close(self):
        self.http.close()

    # raw
    def request(self, method: str, path: str, **kw) -> httpx.Response:
        return self.http.request(method, path, **kw)

    # lifecycle
    def acquire(self, body=None, **fields) -> httpx.Response:
        if body is None:
            body = {"server_names": ["filesystem", "git", "terminal"], **fields}
        return self.http.post("/local-sandbox", json=body)

    def acquire_ok(self, **fields) -> dict:
        r = self.acquire(**fields)
        assert r.status_code == 201, (r.status_code, r.text)
        return r.json()

    def list(self) -> httpx.Response:
        return self.http.get("/local-sandbox")

    def list_ok(self) -> dict:
        r = self.list()
        assert r.status_code == 200, (r.status_code, r.text)
        return r.json()

    def count(self) -> int:
        return self.list_ok()["total_count"]

    def get(self, sid: str) -> httpx.Response:
        return self.http.get(f"/local-sandbox/{sid}")

    def release(self, sid: str, **params) -> httpx.Response:
        return self.http.delete(f"/local-sandbox/{sid}", params=params)

    def reset(self, sid: str) -> httpx.Response:
        return self.http.post(f"/local-sandbox/{sid}/reset")

    def upload_url(self, sid: str, **params) -> httpx.Response:
        return self.http.post(f"/local-sandbox/{sid}/upload-url", params=params)

    def initialize(self, sid: str, **params) -> httpx.Response:
        return self.http.post(f"/local-sandbox/{sid}/initialize", params=params)

    def dump(self, sid: str, **params) -> httpx.Response:
        return self.http.get(f"/local-sandbox/{sid}/dump", params=params)

    # composite helpers
    def upload(self, sid: str, data: bytes) -> str:
        r = self.upload_url(sid)
        assert r.status_code == 200, (r.status_code, r.text)
        url = r.json()["upload_url"]
        put = self.server.put_object(url, data)
        assert put.status_code == 200, (put.status_code, put.text)
        return url

    def upload_and_initialize(self, sid: str, data: bytes) -> dict:
        self.upload(sid, data)
        r = self.initialize(sid)
        assert r.status_code == 200, (r.status_code, r.text)
        return r.json()

    def dump_bytes(self, sid: str) -> bytes:
        r = self.dump(sid)
        assert r.status_code == 200, (r.status_code, r.text)
        url = r.json()["download_url"]
        got = self.server.get_object(url)
        assert got.status_code == 200, (got.status_code, got.text)
        return got.content


# --------------------------------------------------------------------------- server


class Sandboxd:
    """One sandboxd process (and its data directory, kept across restarts)."""

    def __init__(self, root: Path, extra_args: Iterable[str] = (), public_url: str | None = None):
        self.root = Path(root)
        self.data_dir = self.root / "data"
        self.clock_file = self.root / "clock"
        self.extra_args = list(extra_args)
        self.public_url = public_url
        self.proc: subprocess.Popen | None = None
        self.addr: str | None = None
        self.starts = 0
        self.logs: list[Path] = []
        self._clients: list[Api] = []
        self._raw = None

    # ---- process control
    @property
    def base(self) -> str:
        assert self.addr, "server not started"
        return f"http://{self.addr}"

    @property
    def public_base(self) -> str:
        return (self.public_url or self.base).rstrip("/")

    def start(self) -> "Sandboxd":
        binary = sandboxd_bin()
        if not (binary.is_file() and os.access(binary, os.X_OK)):
            pytest.fail(f"sandboxd binary not found or not executable: {binary} (set SANDBOXD_BIN)")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        addr_file = self.data_dir / "listen.addr"
        if addr_file.exists():
            addr_file.unlink()  # left by a previous run; must not be mistaken for the new one
        self.starts += 1
        log = self.root / f"sandboxd-{self.starts}.log"
        self.logs.append(log)
        cmd = [
            str(binary),
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            str(self.data_dir),
            "--test-clock-file",
            str(self.clock_file),
            *self.extra_args,
        ]
        if "--pool-size" not in self.extra_args:
            # No warm pool unless a test asks: pool refills would make the
            # data dir change under tests that compare it before and after.
            cmd += ["--pool-size", "0"]
        if self.public_url:
            cmd += ["--public-url", self.public_url]
        with open(log, "wb") as fh:
            self.proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

        deadline = time.monotonic() + START_TIMEOUT
        addr = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"sandboxd exited with {self.proc.returncode} during start:\n{self.log_tail()}")
            if addr_file.exists():
                text = addr_file.read_text().strip()
                if re.fullmatch(r"127\.0\.0\.1:\d+", text) and not text.endswith(":0"):
                    addr = text
                    break
            time.sleep(0.02)
        if addr is None:
            self.kill9()
            pytest.fail(f"sandboxd did not write listen.addr within {START_TIMEOUT}s:\n{self.log_tail()}")
        self.addr = addr
        self._raw = httpx.Client(timeout=HTTP_TIMEOUT)

        def healthy():
            try:
                r = self._raw.get(f"{self.base}/healthz", timeout=2)
            except httpx.TransportError:
                return False
            return r.status_code == 200 and r.json().get("status") == "ok"

        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"sandboxd exited with {self.proc.returncode} during start:\n{self.log_tail()}")
            if healthy():
                return self
            time.sleep(0.05)
        self.kill9()
        pytest.fail(f"GET /healthz never answered 200 {{'status':'ok', …}}:\n{self.log_tail()}")

    def _close_clients(self):
        for c in self._clients:
            c.close()
        self._clients.clear()
        if self._raw is not None:
            self._raw.close()
            self._raw = None

    def stop(self, timeout: float = STOP_TIMEOUT) -> int | None:
        """SIGTERM, then SIGKILL after `timeout`. Returns the exit code."""
        self._close_clients()
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                self.proc = None
                pytest.fail(f"sandboxd did not exit within {timeout}s of SIGTERM (killed)")
        rc = self.proc.returncode
        self.proc = None
        return rc

    def kill9(self):
        self._close_clients()
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None

    def restart(self, kill: bool = False) -> "Sandboxd":
        if kill:
            self.kill9()
        else:
            self.stop()
        return self.start()

    def cleanup(self):
        problems = []
        try:
            if self.proc is not None and self.proc.poll() is None:
                try:
                    rc = self.stop()
                    if rc not in (0, None):
                        problems.append(f"sandboxd exited with {rc} on SIGTERM")
                except BaseException:
                    self.kill9()
            problems.extend(self.sanitizer_reports())
        finally:
            # Jails outlive sandboxd by design (a restart re-attaches them);
            # a finished test must not leave its sandboxes running.
            destroy_jails(self.data_dir)
            self._close_clients()
            shutil.rmtree(self.root, ignore_errors=True)
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)

    def sanitizer_reports(self) -> list[str]:
        """AddressSanitizer / LeakSanitizer / UBSan reports in any log of this server."""
        found = []
        for log in self.logs:
            try:
                text = log.read_text(errors="replace")
            except OSError:
                continue
            for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
                i = text.find(marker)
                if i >= 0:
                    found.append(f"{log.name}: {text[max(0, i - 200):i + 3000]}")
        return found

    def log_tail(self, lines: int = 60) -> str:
        out = []
        for log in self.logs:
            try:
                text = log.read_text(errors="replace").splitlines()
            except OSError:
                continue
            out.append(f"--- {log.name}")
            out.extend(text[-lines:])
        return "\n".join(out)

    def log_text(self, start: int) -> str:
        return (self.root / f"sandboxd-{start}.log").read_text(errors="replace")

    # ---- test clock
    def set_clock(self, offset_seconds: int):
        tmp = self.clock_file.with_suffix(".tmp")
        tmp.write_text(f"{int(offset_seconds)}\n")
        os.replace(tmp, self.clock_file)

    # ---- keys and clients
    @property
    def admin_key(self) -> str:
        return (self.data_dir / "admin.key").read_text().strip()

    def client(self, key: str | None, owner: str | None = None) -> Api:
        api = Api(self, key, owner)
        self._clients.append(api)
        return api

    def admin(self) -> Api:
        return self.client(self.admin_key, owner=None)

    def create_key(self, owner: str, admin: bool = False) -> dict:
        r = self._raw.post(
            f"{self.base}/admin/keys",
            json={"owner": owner, "admin": admin},
            headers={"Authorization": f"Bearer {self.admin_key}"},
        )
        assert r.status_code == 201, (r.status_code, r.text)
        return r.json()

    def new_owner(self, owner: str | None = None) -> Api:
        owner = owner or f"owner-{uuid.uuid4().hex[:12]}"
        key = self.create_key(owner)["key"]
        return self.client(key, owner)

    def anonymous(self) -> Api:
        return self.client(None)

    # ---- signed object URLs
    def local_url(self, url: str) -> str:
        """The signed URL, pointed at the address this process listens on.

        Signed URLs are built on the public URL; when a test passes
        --public-url for a port the process does not listen on (restarts),
        requests go to the real address with path and query untouched.
        """
        parts = urllib.parse.urlsplit(url)
        base = urllib.parse.urlsplit(self.base)
        return urllib.parse.urlunsplit((base.scheme, base.netloc, parts.path, parts.query, parts.fragment))

    def put_object(self, url: str, data, content_type: str = "application/gzip") -> httpx.Response:
        return self._raw.put(self.local_url(url), content=data, headers={"Content-Type": content_type})

    def get_object(self, url: str) -> httpx.Response:
        return self._raw.get(self.local_url(url))

    def raw(self) -> httpx.Client:
        return self._raw

    # ---- disk
    def sandbox_dir(self, sid: str) -> Path:
        return self.data_dir / "sandboxes" / sid

    def file_snapshot(self) -> dict[str, tuple]:
        """{relative path: (type, size)} of the data dir, SQLite files left out."""
        snap = {}
        for dirpath, dirnames, filenames in os.walk(self.data_dir):
            for name in dirnames + filenames:
                p = Path(dirpath) / name
                rel = str(p.relative_to(self.data_dir))
                if name.startswith("state.db") or name == "listen.addr":
                    continue
                st = p.lstat()
                kind = "d" if p.is_dir() and not p.is_symlink() else ("l" if p.is_symlink() else "f")
                snap[rel] = (kind, st.st_size if kind == "f" else 0)
        return snap


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)


def _new_root() -> Path:
    return Path(tempfile.mkdtemp(prefix="sandboxd-e2e-"))


@pytest.fixture(scope="module")
def server():
    """A default sandboxd shared by the tests of one module."""
    s = Sandboxd(_new_root())
    try:
        s.start()
        yield s
    finally:
        s.cleanup()


@pytest.fixture
def make_server(request):
    """Factory for private servers: make_server(extra_args=[...], public_url=None, start=True)."""
    made: list[Sandboxd] = []

    def factory(extra_args: Iterable[str] = (), public_url: str | None = None, start: bool = True) -> Sandboxd:
        s = Sandboxd(_new_root(), extra_args=extra_args, public_url=public_url)
        made.append(s)
        if start:
            s.start()
        return s

    yield factory
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for s in made:
        if failed:
            print(f"\n==== sandboxd log ({s.root}) ====\n{s.log_tail()}")
        s.cleanup()


@pytest.fixture(autouse=True)
def _module_server_log_on_failure(request):
    yield
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed and "server" in request.fixturenames:
        s = request.getfixturevalue("server")
        print(f"\n==== sandboxd log ({s.root}) ====\n{s.log_tail()}")


@pytest.fixture
def owner(server) -> Api:
    """A fresh owner (own API key) on the module server."""
    return server.new_owner()


@pytest.fixture
def other_owner(server) -> Api:
    return server.new_owner()


def assert_json(r: httpx.Response, status: int, body=None):
    """Asserts status code (and the exact JSON body, if given)."""
    assert r.status_code == status, f"expected {status}, got {r.status_code}: {r.text[:2000]}"
    ctype = r.headers.get("content-type", "")
    assert ctype.startswith("application/json"), f"content-type {ctype!r} for {r.text[:200]}"
    data = r.json()
    if body is not None:
        assert data == body, f"body mismatch:\n got {json.dumps(data)}\nwant {json.dumps(body)}"
    return data


def assert_detail(r: httpx.Response, status: int) -> str:
    """Asserts status and a {"detail": "<non-empty string>"} body; returns the detail."""
    data = assert_json(r, status)
    assert list(data.keys()) == ["detail"], data
    assert isinstance(data["detail"], str) and data["detail"].strip(), data
    return data["detail"]
