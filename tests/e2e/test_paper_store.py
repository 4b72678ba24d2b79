"""The deployment's arXiv paper store (--paper-store): mounted read-only at
/opt/arxiv-store in every sandbox, where the arxiv server finds it by
default; a sandbox can read it, not change it, not run anything from it."""

from __future__ import annotations

import json
import os
import subprocess

from conftest import sandboxd_bin
from mcp_http import McpClient
from sandbox_exec import run_program

PAPER = {
    "id": "2401.00001v2",
    "title": "Jailed Sandboxes for Tool-Using Agents",
    "authors": ["Ada Lovelace", "Alan Turing"],
    "summary": "We study isolation of tool servers.",
    "categories": ["cs.OS", "cs.CR"],
    "published": "2024-01-02T03:04:05Z",
}


def make_store(tmp_path):
    store = tmp_path / "store"
    paper = store / "2401.00001"
    paper.mkdir(parents=True)
    (paper / "metadata.json").write_text(json.dumps(PAPER))
    (paper / "paper.md").write_text("# Jailed Sandboxes\n\nBody text.\n")
    (paper / "run.sh").write_text("#!/bin/sh\necho ran\n")
    # Writable and executable by anyone on the host: only the mount's
    # read-only and noexec flags stand in the sandbox's way.
    for f in ("metadata.json", "paper.md"):
        os.chmod(paper / f, 0o666)
    os.chmod(paper / "run.sh", 0o777)
    os.chmod(tmp_path, 0o755)
    for d in (store, paper):
        os.chmod(d, 0o777)
    return store


def test_store_is_searchable_and_read_only(make_server, tmp_path):
    store = make_store(tmp_path)
    before = {p.name: p.read_bytes() for p in (store / "2401.00001").iterdir()}
    server = make_server(extra_args=["--paper-store", str(store), "--pool-size", "0"])
    api = server.new_owner()
    sb = api.acquire_ok(server_names=["arxiv"])
    sid = sb["local_sandbox_id"]
    client = McpClient(server, sb["servers"][0]["mcp_server_url"])
    try:
        client.initialize()
        found = client.call("tools/call", {"name": "search_papers", "arguments": {"query": "isolation", "max_results": 5}})
        payload = json.loads(found["result"]["content"][0]["text"])
        assert payload["total_results"] == 1
        assert [p["id"] for p in payload["papers"]] == ["2401.00001v2"]
        assert payload["papers"][0]["title"] == PAPER["title"]
    finally:
        client.close()

    status, logs = run_program(api, sid, "\n".join([
        "import os, subprocess",
        "base = '/opt/arxiv-store/2401.00001'",
        "print(sorted(os.listdir(base)))",
        "for attempt in (lambda: open(base + '/metadata.json', 'a'),",
        "                lambda: open('/opt/arxiv-store/new', 'w'),",
        "                lambda: os.remove(base + '/paper.md'),",
        "                lambda: subprocess.run([base + '/run.sh'], check=True)):",
        "    try:",
        "        attempt()",
        "        print('ALLOWED')",
        "    except OSError as e:",
        "        print('refused', e.errno)",
    ]))
    assert status == "completed", logs
    lines = logs.strip().splitlines()
    assert lines[0] == "['metadata.json', 'paper.md', 'run.sh']"
    # EROFS for writes, EACCES for exec from a noexec mount.
    assert lines[1:] == ["refused 30", "refused 30", "refused 30", "refused 13"], logs
    assert {p.name: p.read_bytes() for p in (store / "2401.00001").iterdir()} == before
    api.release(sid)


def test_a_missing_store_stops_sandboxd(tmp_path):
    proc = subprocess.run([str(sandboxd_bin()), "--data-dir", str(tmp_path / "d"),
                           "--paper-store", str(tmp_path / "missing")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode != 0
    assert "--paper-store: Directory does not exist: " + str(tmp_path / "missing") in proc.stderr + proc.stdout
