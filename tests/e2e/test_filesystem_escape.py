"""Escape attempts on the filesystem server, through the real path: MCP over
HTTP → sandboxd → the sandbox's agent → the server in the jail. The hostile
layout (symlinks out of /data, a secret in the jail's /tmp) is made by a
program run in the sandbox; every attempt must fail with the upstream
server's message and leave the outside untouched."""

from __future__ import annotations

import threading

import pytest

from mcp_http import McpClient
from sandbox_exec import run_program

SECRET = "TOPSECRET-outside-data"
OUTSIDE = "Access denied - path outside allowed directories: {} not in /data"
SYMLINK_OUT = "Access denied - symlink target outside allowed directories: {} not in /data"

SETUP = f"""
import os
os.makedirs('/tmp/secretdir', exist_ok=True)
open('/tmp/secretdir/passwd', 'w').write({SECRET!r})
open('/tmp/secret', 'w').write({SECRET!r})
os.makedirs('/data/realdir', exist_ok=True)
open('/data/realdir/passwd', 'w').write('DECOY')
open('/data/a.txt', 'w').write('inside')
os.symlink('/tmp/secretdir', '/data/link_dir')
os.symlink('/tmp/secret', '/data/link_file')
os.symlink('../tmp/secret', '/data/link_relative')
os.symlink('/data/link_file', '/data/link_chain')
os.symlink('/tmp/not-yet', '/data/dangling')
os.symlink('/data/realdir', '/data/link_inside')
os.symlink('/data/loop_a', '/data/loop_b')
os.symlink('/data/loop_b', '/data/loop_a')
try:
    os.link('/tmp/secret', '/data/hardlink')
    print('HARDLINK made')
except OSError as e:
    print('HARDLINK', e.errno)
print('READY')
"""

CHECK_OUTSIDE = f"""
import os
print('SECRET', open('/tmp/secret').read() == {SECRET!r})
print('SECRETDIR', sorted(os.listdir('/tmp/secretdir')))
print('NOTYET', os.path.exists('/tmp/not-yet'))
print('TMP', sorted(os.listdir('/tmp')))
"""


@pytest.fixture(scope="module")
def hostile(server):
    owner = server.new_owner()
    sb = owner.acquire_ok(server_names=["filesystem"])
    sid = sb["local_sandbox_id"]
    status, logs = run_program(owner, sid, SETUP, name="setup")
    assert status == "completed", logs
    # The mounts keep /tmp and /data apart: no hard link can cross them.
    assert "HARDLINK 18" in logs, logs  # EXDEV
    client = McpClient(server, sb["servers"][0]["mcp_server_url"])
    client.initialize()
    yield owner, sid, client
    client.close()
    owner.release(sid)


def text(result) -> str:
    return result["content"][0]["text"]


def assert_denied(client, tool, expected, **args):
    result = client.tool(tool, **args)
    assert result.get("isError") is True, (tool, args, result)
    assert text(result) == expected, (tool, args, result)
    assert SECRET not in str(result)


@pytest.mark.parametrize("path,shown", [
    ("/etc/passwd", "/etc/passwd"),
    ("/data/../etc/passwd", "/etc/passwd"),
    ("../etc/passwd", "/etc/passwd"),
    ("/data/realdir/../../tmp/secret", "/tmp/secret"),
    ("/data2/x", "/data2/x"),
    ("/database", "/database"),
    ("/tmp/secret", "/tmp/secret"),
    ("/", "/"),
])
def test_paths_outside_data_are_refused(hostile, path, shown):
    _, _, client = hostile
    assert_denied(client, "read_text_file", OUTSIDE.format(shown), path=path)


@pytest.mark.parametrize("path,target", [
    ("/data/link_file", "/tmp/secret"),
    ("/data/link_relative", "/tmp/secret"),
    ("/data/link_chain", "/tmp/secret"),
    ("/data/link_dir/passwd", "/tmp/secretdir/passwd"),
])
def test_symlinks_out_of_data_are_refused(hostile, path, target):
    _, _, client = hostile
    assert_denied(client, "read_text_file", SYMLINK_OUT.format(target), path=path)
    assert_denied(client, "get_file_info", SYMLINK_OUT.format(target), path=path)


def test_symlinks_that_stay_inside_are_followed(hostile):
    _, _, client = hostile
    assert text(client.tool("read_text_file", path="/data/link_inside/passwd")) == "DECOY"


def test_writes_through_symlinks_do_not_land_outside(hostile):
    owner, sid, client = hostile
    assert_denied(client, "write_file", SYMLINK_OUT.format("/tmp/secret"), path="/data/link_file", content="pwned")
    # As upstream: the first component that leaves /data is named.
    assert_denied(client, "write_file", SYMLINK_OUT.format("/tmp/secretdir"),
                  path="/data/link_dir/new", content="pwned")
    assert client.tool("write_file", path="/data/dangling", content="pwned").get("isError") is True
    assert client.tool("create_directory", path="/data/link_dir/sub").get("isError") is True
    assert client.tool("edit_file", path="/data/link_file",
                       edits=[{"oldText": SECRET, "newText": "pwned"}]).get("isError") is True
    assert client.tool("move_file", source="/data/a.txt", destination="/tmp/moved").get("isError") is True
    assert client.tool("move_file", source="/data/link_file", destination="/data/stolen").get("isError") is True
    assert client.tool("move_file", source="/data/a.txt",
                       destination="/data/link_dir/moved").get("isError") is True
    status, logs = run_program(owner, sid, CHECK_OUTSIDE, name="check")
    assert status == "completed", logs
    assert "SECRET True" in logs
    assert "SECRETDIR ['passwd']" in logs
    assert "NOTYET False" in logs
    assert "'moved'" not in logs


def test_listings_and_searches_do_not_follow_links_out(hostile):
    _, _, client = hostile
    assert client.tool("list_directory", path="/data/link_dir").get("isError") is True
    tree = text(client.tool("directory_tree", path="/data"))
    assert "secretdir" not in tree and SECRET not in tree
    found = text(client.tool("search_files", path="/data", pattern="**/passwd"))
    assert "/data/link_dir/passwd" not in found
    multi = text(client.tool("read_multiple_files", paths=["/data/a.txt", "/data/link_file", "/etc/passwd"]))
    assert multi.startswith("/data/a.txt:\ninside\n")
    assert SECRET not in multi


def test_loops_nul_bytes_and_long_paths_fail_cleanly(hostile):
    _, _, client = hostile
    assert client.tool("read_text_file", path="/data/loop_a").get("isError") is True
    assert client.tool("read_text_file", path="/data/a.txt\x00/etc/passwd").get("isError") is True
    assert client.tool("read_text_file", path="/data/" + "x" * 5000).get("isError") is True
    assert client.tool("read_text_file", path="/data/" + "d/" * 3000 + "f").get("isError") is True
    assert client.call("ping")["result"] == {}


def test_a_symlink_swapped_in_mid_call_is_never_followed(hostile):
    """A program in the sandbox flips /data/race between a real directory and a
    symlink to /tmp/secretdir while reads and writes go on."""
    owner, sid, client = hostile
    flipper = """
import os, time
os.makedirs('/data/race_real', exist_ok=True)
open('/data/race_real/passwd', 'w').write('DECOY')
end = time.time() + 6
while time.time() < end:
    try:
        os.symlink('/data/race_real', '/data/race_tmp'); os.replace('/data/race_tmp', '/data/race')
        os.symlink('/tmp/secretdir', '/data/race_tmp'); os.replace('/data/race_tmp', '/data/race')
    except OSError:
        pass
print('FLIPPED')
"""
    done = {}
    t = threading.Thread(target=lambda: done.update(r=run_program(owner, sid, flipper, name="flip")))
    t.start()
    seen = set()
    for i in range(300):
        r = client.tool("read_text_file", path="/data/race/passwd")
        assert SECRET not in str(r)
        seen.add(text(r)[:20])
        client.tool("write_file", path="/data/race/passwd", content="overwrite")
    t.join()
    assert done["r"][0] == "completed"
    # The outside file kept its content through 300 racing writes.
    status, logs = run_program(owner, sid, CHECK_OUTSIDE, name="check2")
    assert "SECRET True" in logs, logs
