"""The reference notebook (seeds/003), step by step, against a real sandboxd:
acquire -> upload-url -> PUT tar.gz -> initialize -> dump -> download -> release.
"""

from __future__ import annotations

import datetime as dt
import tarfile
import io
import time
import urllib.parse

from conftest import (
    ACQUIRE_EXT,
    ACQUIRE_KEYS,
    INFO_EXT,
    INFO_KEYS,
    SERVER_KEYS,
    ISO8601_RE,
    TOKEN_RE,
    UUID_RE,
    assert_json,
    not_found_detail,
    notebook_archive,
    release_message,
    wait_until,
)

NOTEBOOK_SERVERS = ["filesystem", "git", "terminal"]
NOTEBOOK_FILES = {
    "./config.json": b'{"app": "demo", "version": "1.0"}',
    "./hello.txt": b"Hello from Klavis Local Sandbox!",
    "./notes.md": b"# Notes\n- item 1\n- item 2",
}

def parse_iso(value: str) -> dt.datetime:
    assert isinstance(value, str) and ISO8601_RE.match(value), f"not ISO 8601 with offset: {value!r}"
    parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    assert parsed.tzinfo is not None
    return parsed


def assert_recent(value: str, slack_s: float = 120):
    t = parse_iso(value)
    now = dt.datetime.now(dt.timezone.utc)
    assert abs((now - t).total_seconds()) < slack_s, f"{value} is not close to now ({now.isoformat()})"


def mcp_url_parts(url: str):
    """(prefix before '?', {query param: value}) with the query's key order kept."""
    prefix, _, query = url.partition("?")
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True, strict_parsing=True)
    return prefix, pairs


def check_extensions(body: dict, ttl=7200, email=None):
    """sandboxd's extra fields: created_at, test_account_email, ttl_seconds, expires_at."""
    created = parse_iso(body["created_at"])
    assert_recent(body["created_at"])
    assert body["test_account_email"] == email
    assert body["ttl_seconds"] == ttl
    if ttl is None:
        assert body["expires_at"] is None
    else:
        assert (parse_iso(body["expires_at"]) - created).total_seconds() == ttl, (body["created_at"], body["expires_at"])


def check_acquire_body(server, body: dict, names: list[str], benchmark=None) -> str:
    """Checks an AcquireLocalSandboxResponse; returns the sandbox's MCP token."""
    assert list(body.keys()) == ACQUIRE_KEYS + ACQUIRE_EXT, list(body.keys())
    sid = body["local_sandbox_id"]
    assert UUID_RE.match(sid), sid
    assert body["status"] == "occupied"  # the notebook's acquire shows 'occupied'
    assert body["benchmark"] == benchmark
    assert body["message"] is None or isinstance(body["message"], str)
    servers = body["servers"]
    assert [s["server_name"] for s in servers] == names
    tokens = set()
    ids = set()
    for item in servers:
        assert list(item.keys()) == SERVER_KEYS, list(item.keys())
        assert UUID_RE.match(item["id"]), item["id"]
        assert item["id"] != sid
        ids.add(item["id"])
        assert item["status"] == "occupied"
        assert item["benchmark"] == benchmark
        assert_recent(item["updated_at"])
        assert item["metadata"] is None or isinstance(item["metadata"], dict)
        assert item["auth_data"] is None or isinstance(item["auth_data"], dict)
        assert item["tags"] is None or (
            isinstance(item["tags"], list) and all(isinstance(t, str) for t in item["tags"])
        )
        prefix, pairs = mcp_url_parts(item["mcp_server_url"])
        assert prefix == f"{server.public_base}/{item['server_name']}/mcp/", item["mcp_server_url"]
        assert [k for k, _ in pairs] == ["local_sandbox_id", "token"], item["mcp_server_url"]
        assert pairs[0][1] == sid
        token = pairs[1][1]
        assert TOKEN_RE.match(token), token
        assert item["mcp_server_url"] == (
            f"{server.public_base}/{item['server_name']}/mcp/?local_sandbox_id={sid}&token={token}"
        )
        tokens.add(token)
    assert len(ids) == len(servers), "server ids must be distinct"
    assert len(tokens) == 1, f"all servers of a sandbox share one token, got {tokens}"
    return tokens.pop()


def check_signed_url(server, url: str, sid: str, expires_in_minutes: int = 30):
    assert url.startswith(f"{server.public_base}/objects/{sid}/"), url
    parts = urllib.parse.urlsplit(url)
    object_id = parts.path.rsplit("/", 1)[1]
    assert object_id and object_id not in (sid,), url
    query = dict(urllib.parse.parse_qsl(parts.query, strict_parsing=True))
    assert set(query) == {"expires", "signature"}, url
    expires = int(query["expires"])
    assert abs(expires - (time.time() + expires_in_minutes * 60)) < 120, (expires, time.time())
    sig = query["signature"]
    assert len(sig) == 64 and all(c in "0123456789abcdef" for c in sig), sig


def test_notebook_flow(server, owner):
    # 2. Acquire
    r = owner.acquire(body={"server_names": NOTEBOOK_SERVERS})
    acquired = assert_json(r, 201)
    check_acquire_body(server, acquired, NOTEBOOK_SERVERS)
    check_extensions(acquired, ttl=7200, email=None)
    sid = acquired["local_sandbox_id"]
    assert server.sandbox_dir(sid).is_dir(), "workspace directory DIR/sandboxes/<id> should exist"

    # GET right after acquire shows the same servers
    info = assert_json(owner.get(sid), 200)
    assert list(info.keys()) == INFO_KEYS + INFO_EXT
    assert info["local_sandbox_id"] == sid
    assert info["created_at"] == acquired["created_at"]
    check_extensions(info, ttl=7200, email=None)
    assert info["status"] == acquired["status"]
    assert info["benchmark"] is None
    assert info["servers"] == acquired["servers"]

    # 3. Initialize: upload-url, PUT, initialize
    archive = notebook_archive()
    r = owner.upload_url(sid)
    up = assert_json(r, 200)
    assert list(up.keys()) == ["upload_url", "expires_in_minutes"]
    assert up["expires_in_minutes"] == 30
    check_signed_url(server, up["upload_url"], sid)

    put = server.put_object(up["upload_url"], archive)
    assert put.status_code == 200, (put.status_code, put.text)
    assert put.content == b"", put.content

    r = owner.initialize(sid)
    init = assert_json(r, 200)
    assert list(init.keys()) == ["sandbox_id", "status", "message"]
    assert init["sandbox_id"] == sid
    assert init["status"] == "occupied"
    assert isinstance(init["message"], str) and init["message"]

    # 4. Dump and download
    r = owner.dump(sid)
    dump = assert_json(r, 200)
    assert list(dump.keys()) == ["download_url", "expires_in_minutes"]
    assert dump["expires_in_minutes"] == 30
    check_signed_url(server, dump["download_url"], sid)
    got = server.get_object(dump["download_url"])
    assert got.status_code == 200, (got.status_code, got.text[:300])
    assert got.headers.get("content-type", "").split(";")[0].strip() == "application/gzip"
    with tarfile.open(fileobj=io.BytesIO(got.content), mode="r:gz") as tar:
        members = tar.getmembers()
        assert [m.name for m in members] == [".", "./config.json", "./hello.txt", "./notes.md"]
        assert members[0].isdir() and members[0].size == 0
        for m in members[1:]:
            assert m.isfile(), m.name
            assert m.size == len(NOTEBOOK_FILES[m.name])
            assert tar.extractfile(m).read() == NOTEBOOK_FILES[m.name], m.name

    # list / get show it
    listing = assert_json(owner.list(), 200)
    assert list(listing.keys()) == ["local_sandboxes", "total_count"]
    assert listing["total_count"] == 1
    info = assert_json(owner.get(sid), 200)
    assert listing["local_sandboxes"] == [info]
    assert [s["id"] for s in info["servers"]] == [s["id"] for s in acquired["servers"]]
    assert [s["mcp_server_url"] for s in info["servers"]] == [s["mcp_server_url"] for s in acquired["servers"]]

    # 5. Release
    r = owner.release(sid)
    assert_json(r, 200, {"message": release_message(sid)})
    assert_json(owner.get(sid), 404, not_found_detail(sid))
    assert_json(owner.list(), 200, {"local_sandboxes": [], "total_count": 0})
    wait_until(lambda: not server.sandbox_dir(sid).exists(), timeout=5, what=f"{server.sandbox_dir(sid)} removed")
    # a second release of the same id: gone
    assert_json(owner.release(sid), 404, not_found_detail(sid))


def test_mcp_tokens_differ_across_sandboxes(server, owner):
    a = owner.acquire_ok()
    b = owner.acquire_ok()
    ta = check_acquire_body(server, a, NOTEBOOK_SERVERS)
    tb = check_acquire_body(server, b, NOTEBOOK_SERVERS)
    assert a["local_sandbox_id"] != b["local_sandbox_id"]
    assert ta != tb
    assert {s["id"] for s in a["servers"]}.isdisjoint({s["id"] for s in b["servers"]})


def test_list_order_and_get_match(server, owner):
    ids = [owner.acquire_ok()["local_sandbox_id"] for _ in range(3)]
    listing = assert_json(owner.list(), 200)
    assert listing["total_count"] == 3
    assert [s["local_sandbox_id"] for s in listing["local_sandboxes"]] == ids  # oldest first
    for entry in listing["local_sandboxes"]:
        assert list(entry.keys()) == INFO_KEYS + INFO_EXT
        assert entry == assert_json(owner.get(entry["local_sandbox_id"]), 200)


def test_dump_of_fresh_sandbox_is_empty(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    data = owner.dump_bytes(sid)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == ["."]
    assert members[0].isdir()


def test_download_url_can_be_fetched_twice(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(sid, notebook_archive())
    url = assert_json(owner.dump(sid), 200)["download_url"]
    first = server.get_object(url)
    second = server.get_object(url)
    assert first.status_code == 200 and second.status_code == 200
    assert first.content == second.content
