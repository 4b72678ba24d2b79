"""The MCP URLs handed out at acquire: until the MCP gateway lands they answer
503, but only after checking the sandbox, the server and the token."""

from __future__ import annotations

import urllib.parse

import httpx


def _split(url: str):
    parts = urllib.parse.urlsplit(url)
    return parts.path, dict(urllib.parse.parse_qsl(parts.query))


def test_mcp_url_checks_before_answering_unavailable(server, owner):
    sb = owner.acquire_ok(server_names=["filesystem", "git"])
    sid = sb["local_sandbox_id"]
    path, query = _split(sb["servers"][0]["mcp_server_url"])
    assert path == "/filesystem/mcp/"
    c = server.raw()

    r = c.post(server.base + path, params=query, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert r.status_code == 503
    assert r.json() == {"detail": "The 'filesystem' MCP server is not available in this sandboxd build yet"}
    r = c.post(server.base + path.rstrip("/"), params=query, json={})  # without the trailing slash
    assert r.status_code == 503

    r = c.post(server.base + path, params={**query, "token": query["token"][:-1] + "A"}, json={})
    assert r.status_code == 401
    assert r.json() == {"detail": "Invalid or missing sandbox token"}
    r = c.post(server.base + path, params={"local_sandbox_id": sid}, json={})
    assert r.status_code == 401

    r = c.post(server.base + "/terminal/mcp/", params=query, json={})  # not in this sandbox
    assert r.status_code == 404
    assert "has no 'terminal' server" in r.json()["detail"]
    r = c.post(server.base + "/nonsense/mcp/", params=query, json={})
    assert r.status_code == 404

    # Another sandbox's token does not open this one.
    other = owner.acquire_ok(server_names=["filesystem"])
    _, other_query = _split(other["servers"][0]["mcp_server_url"])
    r = c.post(server.base + path, params={**query, "token": other_query["token"]}, json={})
    assert r.status_code == 401

    assert owner.release(sid).status_code == 200
    r = c.post(server.base + path, params=query, json={})
    assert r.status_code == 404
    assert r.json() == {"detail": f"Local sandbox {sid} not found"}
