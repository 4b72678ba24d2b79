"""The MCP Streamable HTTP gateway: credentials, Host/Origin, sessions,
content negotiation, batches, GET streams and DELETE, as raw HTTP (the Node
suite in tests/mcp drives the same endpoint with the official SDK)."""

from __future__ import annotations

import json
import re
import threading
import time

import httpx
import pytest

from mcp_http import ACCEPT_BOTH, McpClient, init_request, notification, request, split_url, sse_messages

SESSION_REQUIRED = {"jsonrpc": "2.0", "id": None,
                    "error": {"code": -32000, "message": "Bad Request: Mcp-Session-Id header is required"}}
SESSION_GONE = {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": "Session not found"}}
ALLOWED = "Allowed directories:\n/data"


@pytest.fixture
def sandbox(owner):
    sb = owner.acquire_ok(server_names=["filesystem", "git"])
    yield sb
    owner.release(sb["local_sandbox_id"])


@pytest.fixture
def client(server, sandbox):
    c = McpClient(server, sandbox["servers"][0]["mcp_server_url"])
    yield c
    c.close()


def test_credentials_sandbox_and_server_are_checked_first(server, owner, other_owner):
    sb = owner.acquire_ok(server_names=["filesystem", "git"])
    sid = sb["local_sandbox_id"]
    path, query = split_url(sb["servers"][0]["mcp_server_url"])
    assert path == "/filesystem/mcp/"
    c = server.raw()
    body = init_request()
    hdr = {"Accept": ACCEPT_BOTH}

    r = c.post(server.base + path, params={**query, "token": query["token"][:-1] + "A"}, json=body, headers=hdr)
    assert (r.status_code, r.json()) == (401, {"detail": "Invalid or missing sandbox token"})
    r = c.post(server.base + path, params={"local_sandbox_id": sid}, json=body, headers=hdr)
    assert r.status_code == 401
    r = c.post(server.base + "/terminal/mcp/", params=query, json=body, headers=hdr)
    assert r.status_code == 404
    assert r.json() == {"detail": f"Local sandbox {sid} has no 'terminal' server; acquire one that lists it"}
    r = c.post(server.base + "/nonsense/mcp/", params=query, json=body, headers=hdr)
    assert r.status_code == 404

    other = owner.acquire_ok(server_names=["filesystem"])
    _, other_query = split_url(other["servers"][0]["mcp_server_url"])
    r = c.post(server.base + path, params={**query, "token": other_query["token"]}, json=body, headers=hdr)
    assert r.status_code == 401

    # The owner's bearer key opens it without the token; another owner's does not.
    r = c.post(server.base + path, params={"local_sandbox_id": sid}, json=body,
               headers={**hdr, "Authorization": f"Bearer {owner.key}"})
    assert r.status_code == 200, r.text
    r = c.post(server.base + path, params={"local_sandbox_id": sid}, json=body,
               headers={**hdr, "Authorization": f"Bearer {other_owner.key}"})
    assert (r.status_code, r.json()) == (404, {"detail": f"Local sandbox {sid} not found"})

    # Without the trailing slash too.
    r = c.post(server.base + path.rstrip("/"), params=query, json=body, headers=hdr)
    assert r.status_code == 200

    assert owner.release(sid).status_code == 200
    r = c.post(server.base + path, params=query, json=body, headers=hdr)
    assert (r.status_code, r.json()) == (404, {"detail": f"Local sandbox {sid} not found"})


def test_initialize_issues_a_session_and_negotiates_the_version(client):
    for version, expect in [("2025-11-25", "2025-11-25"), ("2025-06-18", "2025-06-18"),
                            ("2025-03-26", "2025-03-26"), ("2030-01-01", "2025-11-25")]:
        r = client.post(init_request(version=version), **{"MCP-Protocol-Version": None})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "application/json"
        assert re.fullmatch(r"[0-9a-f]{32}", r.headers["mcp-session-id"])
        assert r.json() == {"jsonrpc": "2.0", "id": 0, "result": {
            "protocolVersion": expect, "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "secure-filesystem-server", "version": "0.2.0"}}}
    # Each initialize is a new session.
    a = client.post(init_request()).headers["mcp-session-id"]
    b = client.post(init_request()).headers["mcp-session-id"]
    assert a != b
    # A failed initialize makes none.
    r = client.post(request(1, "initialize", {}))
    assert r.status_code == 200
    assert r.json()["error"]["code"] == -32602
    assert "mcp-session-id" not in r.headers


def test_session_header_is_required_and_checked(client):
    client.initialize()
    r = client.post(request(1, "ping"), **{"Mcp-Session-Id": None})
    assert (r.status_code, r.json()) == (400, SESSION_REQUIRED)
    r = client.post(request(1, "ping"), **{"Mcp-Session-Id": "0" * 32})
    assert (r.status_code, r.json()) == (404, SESSION_GONE)
    assert client.call("ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}


def test_delete_ends_the_session(client):
    client.initialize()
    r = client.http.delete(client.url, params=client.query, headers=client.headers())
    assert r.status_code == 200
    r = client.post(request(1, "ping"))
    assert (r.status_code, r.json()) == (404, SESSION_GONE)
    r = client.http.delete(client.url, params=client.query, headers=client.headers())
    assert (r.status_code, r.json()) == (404, SESSION_GONE)
    r = client.http.delete(client.url, params=client.query, headers=client.headers(**{"Mcp-Session-Id": None}))
    assert (r.status_code, r.json()) == (400, SESSION_REQUIRED)


def test_protocol_version_header_is_checked(client):
    client.initialize()
    r = client.post(request(1, "ping"), **{"MCP-Protocol-Version": "1999-01-01"})
    assert r.status_code == 400
    assert r.json() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message":
        "Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: "
        "2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"}}
    r = client.post(request(2, "ping"), **{"MCP-Protocol-Version": None})  # absent: assumed 2025-03-26
    assert r.status_code == 200


def test_accept_and_content_type(client):
    client.initialize()
    r = client.post(request(1, "ping"), Accept="text/html")
    assert r.status_code == 406
    assert r.json()["error"]["message"].startswith("Not Acceptable")
    r = client.post(request(2, "ping"), Accept="text/event-stream")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/event-stream"
    assert sse_messages(r.text) == [{"jsonrpc": "2.0", "id": 2, "result": {}}]
    r = client.post(request(3, "ping"), Accept="*/*")
    assert (r.status_code, r.headers["content-type"]) == (200, "application/json")
    r = client.post(request(4, "ping"), **{"Content-Type": "text/plain"})
    assert r.status_code == 415


def test_malformed_bodies(client):
    client.initialize()
    r = client.post(b"{not json")
    assert (r.status_code, r.json()) == (400, {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": "Parse error: the body is not valid JSON"}})
    r = client.post(b"[]")
    assert r.status_code == 400 and r.json()["error"]["code"] == -32600
    r = client.post({"jsonrpc": "1.0", "id": 5, "method": "ping"})
    assert r.status_code == 200
    assert r.json() == {"jsonrpc": "2.0", "id": 5, "error": {"code": -32600,
                                                               "message": "Invalid Request: \"jsonrpc\" must be \"2.0\""}}
    r = client.post(request(6, "no/such/method"))
    assert r.json() == {"jsonrpc": "2.0", "id": 6, "error": {"code": -32601, "message": "Method not found"}}
    r = client.post(b"x" * (32 * 1024 * 1024 + 1))
    assert r.status_code == 413


def test_notifications_get_202_and_batches_get_arrays(client):
    client.initialize()
    r = client.post(notification("notifications/progress", {"progressToken": 1, "progress": 1}))
    assert (r.status_code, r.content) == (202, b"")
    r = client.post([request(1, "ping"), notification("notifications/initialized"), request(2, "tools/call", {
        "name": "list_allowed_directories", "arguments": {}})])
    assert r.status_code == 200
    body = r.json()
    assert body[0] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert body[1]["id"] == 2 and body[1]["result"]["content"] == [{"type": "text", "text": ALLOWED}]
    r = client.post([init_request(), request(1, "ping")])
    assert r.status_code == 400
    assert r.json()["error"]["message"] == "Invalid Request: initialize must be sent on its own"


def test_host_and_origin_are_validated(server, client):
    port = server.addr.split(":")[1]
    r = client.post(init_request(), Host=f"evil.example:{port}")
    assert r.status_code == 403
    assert "not this server's public address" in r.json()["detail"]
    r = client.post(init_request(), Origin="http://evil.example")
    assert r.status_code == 403
    r = client.post(init_request(), Origin=f"http://localhost:{port}", Host=f"localhost:{port}")
    assert r.status_code == 200


def test_sessions_and_sandboxes_are_isolated(server, owner, sandbox):
    other = owner.acquire_ok(server_names=["filesystem"])
    a = McpClient(server, sandbox["servers"][0]["mcp_server_url"])
    b = McpClient(server, sandbox["servers"][0]["mcp_server_url"])
    c = McpClient(server, other["servers"][0]["mcp_server_url"])
    for x in (a, b, c):
        x.initialize()
    assert len({a.session, b.session, c.session}) == 3
    # A session id is only good on its own sandbox.
    r = c.post(request(1, "ping"), **{"Mcp-Session-Id": a.session})
    assert (r.status_code, r.json()) == (404, SESSION_GONE)
    # Concurrent calls with the same JSON-RPC ids each get their own answers.
    results = {}

    def run(name, cl):
        results[name] = [cl.call("tools/list")["result"]["tools"][0]["name"] for _ in range(20)]
    threads = [threading.Thread(target=run, args=(n, cl)) for n, cl in (("a", a), ("b", b), ("c", c))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(len(v) == 20 for v in results.values())
    # Ending one session leaves the other alone.
    assert a.http.delete(a.url, params=a.query, headers=a.headers()).status_code == 200
    assert b.call("ping")["result"] == {}
    for x in (a, b, c):
        x.close()


def test_get_stream_opens_and_ends_with_the_session(client):
    client.initialize()
    r = client.http.get(client.url, params=client.query, headers=client.headers(Accept="application/json"))
    assert r.status_code == 406
    r = client.http.get(client.url, params=client.query,
                        headers=client.headers(Accept="text/event-stream", **{"Mcp-Session-Id": None}))
    assert (r.status_code, r.json()) == (400, SESSION_REQUIRED)
    r = client.http.get(client.url, params=client.query,
                        headers=client.headers(Accept="text/event-stream", **{"Mcp-Session-Id": "f" * 32}))
    assert (r.status_code, r.json()) == (404, SESSION_GONE)

    got = {}

    def listen():
        with httpx.Client(timeout=20) as h:
            with h.stream("GET", client.url, params=client.query,
                          headers=client.headers(Accept="text/event-stream")) as s:
                got["status"] = s.status_code
                got["type"] = s.headers["content-type"]
                got["body"] = b"".join(s.iter_raw())
    t = threading.Thread(target=listen)
    t.start()
    import time
    deadline = time.monotonic() + 10
    while "status" not in got and time.monotonic() < deadline:
        time.sleep(0.02)
    assert got.get("status") == 200 and got["type"] == "text/event-stream"
    # Other requests go on while the stream is open; DELETE ends it.
    assert client.call("ping")["result"] == {}
    assert client.http.delete(client.url, params=client.query, headers=client.headers()).status_code == 200
    t.join(10)
    assert not t.is_alive()
    assert got["body"] == b": stream open\n\n"


def test_sessions_survive_a_sandboxd_restart(make_server):
    s = make_server()
    owner = s.new_owner()
    sb = owner.acquire_ok(server_names=["filesystem"])
    c = McpClient(s, sb["servers"][0]["mcp_server_url"])
    c.initialize()
    s.restart(kill=True)
    c.url = s.base + c.path
    assert c.tool("list_allowed_directories")["content"] == [{"type": "text", "text": ALLOWED}]
    owner = s.client(owner.key)
    assert owner.release(sb["local_sandbox_id"]).status_code == 200
    r = c.post(request(9, "ping"))
    assert r.status_code == 404
    c.close()


def _wait_pool_full(s, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pool = s.raw().get(f"{s.base}/healthz").json()["pool"]
        if pool["idle"] == pool["size"]:
            return
        time.sleep(0.05)
    pytest.fail(f"the pool did not fill: {pool}")


def test_a_pooled_sandbox_answers_its_first_calls_at_once(make_server):
    """A pooled agent warmed every server while it waited and builds the
    acquired ones as it is handed over; its links were connected as its
    jail started. None of that may show in what the client gets."""
    s = make_server(extra_args=["--pool-size", "2"])
    _wait_pool_full(s)
    owner = s.new_owner()
    sb = owner.acquire_ok(server_names=["filesystem", "git"])
    fs = McpClient(s, sb["servers"][0]["mcp_server_url"])
    git = McpClient(s, sb["servers"][1]["mcp_server_url"])
    assert fs.initialize()["result"]["serverInfo"] == {"name": "secure-filesystem-server", "version": "0.2.0"}
    assert fs.tool("list_allowed_directories") == {
        "content": [{"type": "text", "text": ALLOWED}], "structuredContent": {"content": ALLOWED}}
    assert git.initialize()["result"]["serverInfo"] == {"name": "mcp-git", "version": "1.28.1"}
    assert fs.tool("list_allowed_directories")["content"] == [{"type": "text", "text": ALLOWED}]
    # The agent logged nothing: no server failed to build or warm.
    assert (s.data_dir / "sandboxes" / sb["local_sandbox_id"] / "agent.log").read_text() == ""
    fs.close()
    git.close()
    assert owner.release(sb["local_sandbox_id"]).status_code == 200


def test_a_sandbox_first_called_after_a_sandboxd_restart_answers(make_server):
    """The links connected ahead die with the old sandboxd; the new one
    connects on first use, and the servers the old one had built are used."""
    s = make_server(extra_args=["--pool-size", "1"])
    _wait_pool_full(s)
    owner = s.new_owner()
    sb = owner.acquire_ok(server_names=["filesystem"])
    s.restart(kill=True)
    c = McpClient(s, sb["servers"][0]["mcp_server_url"])
    assert c.initialize()["result"]["serverInfo"]["name"] == "secure-filesystem-server"
    assert c.tool("list_allowed_directories")["content"] == [{"type": "text", "text": ALLOWED}]
    c.close()
    assert s.client(owner.key).release(sb["local_sandbox_id"]).status_code == 200


def _run_code(client, id_, code):
    return client.post(request(id_, "tools/call", {"name": "run-code",
                                                   "arguments": {"languageId": "shellscript", "code": code}}),
                       Accept="application/json")


def test_a_long_call_holds_up_neither_other_calls_nor_its_cancellation(server, owner):
    """The agent runs a call on the thread that read it, so it must leave
    another thread reading: a ping on the same session, a call of another
    server and the cancellation itself are all answered while the call runs."""
    sb = owner.acquire_ok(server_names=["code-runner", "filesystem"])
    try:
        runner = McpClient(server, sb["servers"][0]["mcp_server_url"])
        files = McpClient(server, sb["servers"][1]["mcp_server_url"])
        runner.initialize()
        files.initialize()
        done = {}
        started = time.monotonic()
        long_call = threading.Thread(target=lambda: done.update(r=_run_code(runner, 7, "sleep 60; echo late"),
                                                                 at=time.monotonic()))
        long_call.start()
        time.sleep(1)
        r = runner.post(request(8, "ping"))
        assert (r.status_code, r.json()) == (200, {"jsonrpc": "2.0", "id": 8, "result": {}})
        r = files.post(request(1, "tools/call", {"name": "list_allowed_directories", "arguments": {}}))
        assert r.status_code == 200
        assert r.json()["result"]["content"] == [{"type": "text", "text": ALLOWED}]
        assert long_call.is_alive()
        r = runner.post(notification("notifications/cancelled", {"requestId": 7, "reason": "test"}))
        assert r.status_code == 202
        long_call.join(timeout=20)
        assert not long_call.is_alive()
        # A cancelled request gets no answer: the POST ends with 202 and no body.
        assert (done["r"].status_code, done["r"].text) == (202, "")
        assert done["at"] - started < 15
        runner.close()
        files.close()
    finally:
        owner.release(sb["local_sandbox_id"])


def test_calls_of_several_sessions_run_at_once(server, owner):
    sb = owner.acquire_ok(server_names=["code-runner"])
    try:
        clients = [McpClient(server, sb["servers"][0]["mcp_server_url"]) for _ in range(4)]
        for c in clients:
            c.initialize()
        results = [None] * len(clients)

        def call(i):
            results[i] = _run_code(clients[i], 1, f"sleep 2; echo call {i}")

        started = time.monotonic()
        threads = [threading.Thread(target=call, args=(i,)) for i in range(len(clients))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        elapsed = time.monotonic() - started
        for i, r in enumerate(results):
            assert r.status_code == 200
            assert r.json()["result"]["content"] == [{"type": "text", "text": f"call {i}\n"}]
        # Four two-second calls one after another would take eight seconds.
        assert elapsed < 6, elapsed
        for c in clients:
            c.close()
    finally:
        owner.release(sb["local_sandbox_id"])
