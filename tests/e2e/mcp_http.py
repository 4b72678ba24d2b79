"""A raw MCP Streamable HTTP client for the gateway tests: every header and
status visible, nothing hidden by an SDK (the Node suite in tests/mcp uses
the official SDK)."""

from __future__ import annotations

import json
import urllib.parse

import httpx

ACCEPT_BOTH = "application/json, text/event-stream"
VERSION = "2025-06-18"


def split_url(url: str):
    parts = urllib.parse.urlsplit(url)
    return parts.path, dict(urllib.parse.parse_qsl(parts.query))


def request(id_, method, params=None):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return m


def notification(method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return m


def init_request(id_=0, version=VERSION):
    return request(id_, "initialize", {"protocolVersion": version, "capabilities": {},
                                       "clientInfo": {"name": "pytest", "version": "1"}})


def sse_messages(text: str) -> list[dict]:
    """The JSON messages of an SSE body ("data:" lines of each event)."""
    out = []
    for block in text.split("\n\n"):
        data = [line[5:].lstrip() for line in block.split("\n") if line.startswith("data:")]
        if data and "".join(data):
            out.append(json.loads("\n".join(data)))
    return out


class McpClient:
    """One MCP session over the gateway."""

    def __init__(self, server, url: str, headers: dict | None = None):
        self.path, self.query = split_url(url)
        self.url = server.base + self.path
        self.http = httpx.Client(timeout=30, headers=headers or {})
        self.session: str | None = None
        self.next_id = 1

    def close(self):
        self.http.close()

    def headers(self, **extra):
        h = {"Accept": ACCEPT_BOTH, "Content-Type": "application/json", "MCP-Protocol-Version": VERSION}
        if self.session:
            h["Mcp-Session-Id"] = self.session
        h.update(extra)
        return {k: v for k, v in h.items() if v is not None}

    def post(self, body, **headers) -> httpx.Response:
        content = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return self.http.post(self.url, params=self.query, content=content, headers=self.headers(**headers))

    def initialize(self, version=VERSION) -> dict:
        r = self.post(init_request(version=version), **{"MCP-Protocol-Version": None})
        assert r.status_code == 200, (r.status_code, r.text)
        self.session = r.headers["mcp-session-id"]
        r2 = self.post(notification("notifications/initialized"))
        assert r2.status_code == 202, (r2.status_code, r2.text)
        return r.json()

    def call(self, method, params=None) -> dict:
        id_ = self.next_id
        self.next_id += 1
        r = self.post(request(id_, method, params))
        assert r.status_code == 200, (r.status_code, r.text)
        body = r.json() if r.headers["content-type"].startswith("application/json") else sse_messages(r.text)[-1]
        assert body["id"] == id_
        return body

    def tool(self, name, **arguments) -> dict:
        return self.call("tools/call", {"name": name, "arguments": arguments})["result"]
