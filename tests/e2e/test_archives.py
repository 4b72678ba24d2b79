"""Signed object URLs, upload caps, hostile archives and reset.

Every refusal must leave state unchanged: the workspace (checked through a dump)
is exactly the seed it held before, no file is added to the data directory, and
nothing appears outside it.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tarfile
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from conftest import (
    Sandboxd,
    _new_root,
    assert_detail,
    assert_json,
    make_tar,
    notebook_archive,
    read_tar,
    tar_names,
    tinfo,
)

MAX_UPLOAD = 256 * 1024
MAX_EXTRACT_BYTES = 1024 * 1024
MAX_EXTRACT_ENTRIES = 50


@pytest.fixture(scope="module")
def server():
    """This module's server: small upload and extraction limits."""
    s = Sandboxd(
        _new_root(),
        extra_args=[
            "--max-upload-bytes",
            str(MAX_UPLOAD),
            "--max-extract-bytes",
            str(MAX_EXTRACT_BYTES),
            "--max-extract-entries",
            str(MAX_EXTRACT_ENTRIES),
        ],
    )
    try:
        s.start()
        yield s
    finally:
        s.cleanup()


def seed_archive() -> bytes:
    return make_tar(
        [
            (tinfo("docs", tarfile.DIRTYPE, 0o755), None),
            ("docs/readme.txt", b"read me\n"),
            (tinfo("run.sh", mode=0o755), b"#!/bin/sh\necho hi\n"),
            ("seed.txt", b"seed contents\n"),
        ]
    )


SEED_NAMES = [".", "./docs", "./docs/readme.txt", "./run.sh", "./seed.txt"]


@pytest.fixture
def seeded(server, owner):
    """(api, sandbox id, dump members) of a sandbox initialized with the seed archive."""
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(sid, seed_archive())
    members = read_tar(owner.dump_bytes(sid))
    assert [m["name"] for m in members] == SEED_NAMES
    return owner, sid, members


def assert_no_new_files(before: dict, after: dict):
    added = sorted(set(after) - set(before))
    assert not added, f"files added to the data dir: {added}"
    grown = sorted(p for p in before if p in after and after[p][1] > before[p][1])
    assert not grown, f"files grown in the data dir: {grown}"


def with_query(url: str, **changes) -> str:
    parts = urllib.parse.urlsplit(url)
    q = dict(urllib.parse.parse_qsl(parts.query))
    for k, v in changes.items():
        if v is None:
            q.pop(k, None)
        else:
            q[k] = v
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(q)))


def with_path(url: str, sandbox_id: str | None = None, object_id: str | None = None) -> str:
    parts = urllib.parse.urlsplit(url)
    segs = parts.path.split("/")  # ['', 'objects', sid, oid]
    assert segs[-3] == "objects", url
    if sandbox_id is not None:
        segs[-2] = sandbox_id
    if object_id is not None:
        segs[-1] = object_id
    return urllib.parse.urlunsplit(parts._replace(path="/".join(segs)))


def flip_hex(sig: str) -> str:
    return ("1" if sig[0] != "1" else "2") + sig[1:]


# --------------------------------------------------------------------------- the seed itself


def test_seed_roundtrip(seeded):
    api, sid, members = seeded
    by_name = {m["name"]: m for m in members}
    assert by_name["."]["type"] == tarfile.DIRTYPE
    assert by_name["./docs"]["type"] == tarfile.DIRTYPE
    assert by_name["./docs/readme.txt"]["data"] == b"read me\n"
    assert by_name["./seed.txt"]["data"] == b"seed contents\n"
    assert by_name["./run.sh"]["data"] == b"#!/bin/sh\necho hi\n"
    assert by_name["./run.sh"]["mode"] & 0o777 == 0o755
    assert by_name["./seed.txt"]["mode"] & 0o777 == 0o644


def test_implicit_parent_directories(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(sid, make_tar([("a/b/c.txt", b"deep")]))
    members = read_tar(owner.dump_bytes(sid))
    assert [m["name"] for m in members] == [".", "./a", "./a/b", "./a/b/c.txt"]
    assert members[3]["data"] == b"deep"


def test_in_tree_symlink_kept(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(
        sid,
        make_tar([("target.txt", b"t"), (tinfo("link", tarfile.SYMTYPE, 0o777, linkname="target.txt"), None)]),
    )
    members = {m["name"]: m for m in read_tar(owner.dump_bytes(sid))}
    assert set(members) == {".", "./link", "./target.txt"}
    assert members["./link"]["type"] == tarfile.SYMTYPE
    assert members["./link"]["linkname"] == "target.txt"


def test_dot_prefixed_names(server, owner):
    """Members named './x' (what `tar -C dir -czf - .` produces) land at x."""
    sid = owner.acquire_ok()["local_sandbox_id"]
    data = make_tar([(tinfo(".", tarfile.DIRTYPE, 0o755), None), ("./x.txt", b"x")])
    owner.upload_and_initialize(sid, data)
    assert tar_names(owner.dump_bytes(sid)) == [".", "./x.txt"]


def test_dump_reuploads_identically(server, seeded):
    """A dump (members "." and "./...") is itself a valid upload: round trip."""
    api, sid, members = seeded
    copy = api.acquire_ok()["local_sandbox_id"]
    api.upload_and_initialize(copy, api.dump_bytes(sid))
    assert read_tar(api.dump_bytes(copy)) == members


def test_setuid_bits_stripped(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(
        sid,
        make_tar(
            [
                (tinfo("suid", mode=0o4755), b"suid"),
                (tinfo("sgid_sticky", mode=0o7755), b"sgid"),
                (tinfo("dir", tarfile.DIRTYPE, 0o3777), None),
            ]
        ),
    )
    members = {m["name"]: m for m in read_tar(owner.dump_bytes(sid))}
    assert set(members) == {".", "./dir", "./sgid_sticky", "./suid"}
    assert members["./suid"]["mode"] == 0o755, oct(members["./suid"]["mode"])
    assert members["./sgid_sticky"]["mode"] == 0o755, oct(members["./sgid_sticky"]["mode"])
    assert members["./dir"]["mode"] & 0o7000 == 0, oct(members["./dir"]["mode"])
    assert members["./suid"]["data"] == b"suid"
    # and on disk, nowhere under the sandbox directory is a setuid/setgid file
    for dirpath, dirnames, filenames in os.walk(server.sandbox_dir(sid)):
        for name in dirnames + filenames:
            st = os.lstat(os.path.join(dirpath, name))
            assert st.st_mode & 0o6000 == 0, (name, oct(st.st_mode))


# --------------------------------------------------------------------------- signed URLs


def _urls(api, sid):
    up = assert_json(api.upload_url(sid), 200)["upload_url"]
    down = assert_json(api.dump(sid), 200)["download_url"]
    return up, down


TAMPERS = {
    "signature": lambda url, other: with_query(url, signature=flip_hex(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))["signature"])),
    "signature_missing": lambda url, other: with_query(url, signature=None),
    "signature_empty": lambda url, other: with_query(url, signature=""),
    "expires_plus_1": lambda url, other: with_query(url, expires=str(int(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))["expires"]) + 1)),
    "expires_far_future": lambda url, other: with_query(url, expires="9999999999"),
    "expires_missing": lambda url, other: with_query(url, expires=None),
    "expires_garbage": lambda url, other: with_query(url, expires="abc"),
    "other_sandbox_in_path": lambda url, other: with_path(url, sandbox_id=other),
    "other_object_id": lambda url, other: with_path(url, object_id=uuid.uuid4().hex),
}


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_tampered_upload_url(server, seeded, tamper):
    api, sid, members = seeded
    fresh = api.acquire_ok()["local_sandbox_id"]  # never uploaded to
    if tamper == "other_sandbox_in_path":
        # a URL issued for the seeded sandbox, re-pointed at the fresh one
        up = assert_json(api.upload_url(sid), 200)["upload_url"]
        bad = TAMPERS[tamper](up, fresh)
    else:
        up = assert_json(api.upload_url(fresh), 200)["upload_url"]
        bad = TAMPERS[tamper](up, sid)
    assert bad != up
    before = server.file_snapshot()
    r = server.put_object(bad, notebook_archive())
    assert_detail(r, 403)
    assert_no_new_files(before, server.file_snapshot())
    # nothing was stored for the fresh sandbox: initialize still has no upload
    assert_detail(api.initialize(fresh), 400)
    assert tar_names(api.dump_bytes(fresh)) == ["."]
    assert read_tar(api.dump_bytes(sid)) == members
    # and the genuine URL still works
    assert server.put_object(up, notebook_archive()).status_code == 200


@pytest.mark.parametrize("tamper", sorted(TAMPERS))
def test_tampered_download_url(server, seeded, tamper):
    api, sid, members = seeded
    other = api.acquire_ok()["local_sandbox_id"]
    _, down = _urls(api, sid)
    bad = TAMPERS[tamper](down, other)
    r = server.get_object(bad)
    assert_detail(r, 403)
    assert "gzip" not in r.headers.get("content-type", "")
    good = server.get_object(down)
    assert good.status_code == 200
    assert read_tar(good.content) == members


def test_upload_url_with_get_and_download_url_with_put(server, seeded):
    api, sid, members = seeded
    up, down = _urls(api, sid)
    dump_before = server.get_object(down).content

    r = server.raw().get(server.local_url(up))
    assert_detail(r, 403)

    before = server.file_snapshot()
    r = server.put_object(down, notebook_archive())
    assert_detail(r, 403)
    assert_no_new_files(before, server.file_snapshot())
    # the dump object was not overwritten
    assert server.get_object(down).content == dump_before
    # POST / DELETE on object URLs are refused too (403 or 405), and change nothing
    for method in ("POST", "DELETE"):
        r = server.raw().request(method, server.local_url(up), content=b"x")
        assert r.status_code in (403, 405), (method, r.status_code, r.text)
        r = server.raw().request(method, server.local_url(down))
        assert r.status_code in (403, 405), (method, r.status_code, r.text)
    assert server.get_object(down).content == dump_before
    assert read_tar(api.dump_bytes(sid)) == members


def test_upload_url_of_other_owner_sandbox_cannot_be_forged(server, seeded, other_owner):
    """A URL issued to one owner, re-pointed at another owner's sandbox: 403."""
    api, sid, members = seeded
    theirs = other_owner.acquire_ok()["local_sandbox_id"]
    up = assert_json(api.upload_url(sid), 200)["upload_url"]
    r = server.put_object(with_path(up, sandbox_id=theirs), notebook_archive())
    assert_detail(r, 403)
    assert_detail(other_owner.initialize(theirs), 400)


def test_released_sandbox_urls_stop_working(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(sid, seed_archive())
    up, down = _urls(owner, sid)
    assert_json(owner.release(sid), 200)
    # The URLs are validly signed and unexpired, but the sandbox is gone.
    r = server.put_object(up, notebook_archive())
    assert r.status_code in (403, 404), (r.status_code, r.text)
    r = server.get_object(down)
    assert r.status_code in (403, 404), (r.status_code, r.text)


def test_expired_urls(make_server):
    s = make_server()
    api = s.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    api.upload_and_initialize(sid, seed_archive())
    up1 = assert_json(api.upload_url(sid), 200)["upload_url"]
    up2 = assert_json(api.upload_url(sid), 200)["upload_url"]
    down = assert_json(api.dump(sid), 200)["download_url"]

    s.set_clock(29 * 60)  # still valid
    assert s.get_object(down).status_code == 200
    assert s.put_object(up1, notebook_archive()).status_code == 200

    s.set_clock(31 * 60)  # expired (30 min)
    assert_detail(s.get_object(down), 403)
    before = s.file_snapshot()
    assert_detail(s.put_object(up2, make_tar([("late.txt", b"late")])), 403)
    assert_no_new_files(before, s.file_snapshot())

    # the latest complete upload is still up1's (the notebook archive)
    assert_json(api.initialize(sid), 200)
    assert tar_names(api.dump_bytes(sid)) == [".", "./config.json", "./hello.txt", "./notes.md"]

    # URLs issued now are valid for 30 minutes of the (shifted) clock
    fresh = assert_json(api.upload_url(sid), 200)["upload_url"]
    expires = int(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(fresh).query))["expires"])
    assert abs(expires - (time.time() + 31 * 60 + 30 * 60)) < 120
    assert s.put_object(fresh, seed_archive()).status_code == 200


# --------------------------------------------------------------------------- upload cap


def test_upload_exactly_at_cap_accepted(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    up = assert_json(owner.upload_url(sid), 200)["upload_url"]
    r = server.put_object(up, os.urandom(MAX_UPLOAD))
    assert r.status_code == 200, (r.status_code, r.text)


def test_upload_over_cap(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    up = assert_json(owner.upload_url(sid), 200)["upload_url"]
    before = server.file_snapshot()
    r = server.put_object(up, os.urandom(MAX_UPLOAD + 1))
    assert_detail(r, 413)
    assert_no_new_files(before, server.file_snapshot())
    assert_detail(owner.initialize(sid), 400)  # no complete upload
    assert tar_names(owner.dump_bytes(sid)) == ["."]


def test_upload_over_cap_chunked(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    up = assert_json(owner.upload_url(sid), 200)["upload_url"]
    before = server.file_snapshot()

    def chunks():
        for _ in range(8):
            yield os.urandom(MAX_UPLOAD // 4)

    r = server.put_object(up, chunks())
    assert_detail(r, 413)
    assert_no_new_files(before, server.file_snapshot())
    assert_detail(owner.initialize(sid), 400)


def test_upload_over_cap_keeps_previous_state(server, seeded):
    api, sid, members = seeded
    up = assert_json(api.upload_url(sid), 200)["upload_url"]
    assert_detail(server.put_object(up, os.urandom(MAX_UPLOAD + 1000)), 413)
    # Whether an already-initialized upload can be initialized again is not
    # specified (200 with the seed, or 400 "no upload"); the oversized bytes
    # must never reach the workspace.
    r = api.initialize(sid)
    assert r.status_code in (200, 400), (r.status_code, r.text)
    assert read_tar(api.dump_bytes(sid)) == members


# --------------------------------------------------------------------------- hostile archives


def _hostile(tag: str):
    """name -> (archive bytes, expected status, string the detail must contain or None, evil names)."""
    evil = f"evil_{tag}"
    ok = (f"ok_{tag}.txt", b"harmless")  # a good entry first: the whole archive must be refused
    big = b"\0" * (2 * MAX_EXTRACT_BYTES)
    return {
        "dotdot": (make_tar([ok, (f"../{evil}", b"x")]), 400, evil),
        "dotdot_deep": (make_tar([ok, (f"../../../{evil}", b"x")]), 400, evil),
        "dotdot_inner": (make_tar([ok, (f"sub/../../{evil}", b"x")]), 400, evil),
        "absolute": (make_tar([ok, (f"/tmp/{evil}", b"x")]), 400, evil),
        "symlink_to_etc_then_file": (
            make_tar([ok, (tinfo(f"etc_{tag}", tarfile.SYMTYPE, 0o777, linkname="/etc"), None), (f"etc_{tag}/{evil}", b"x")]),
            400,
            f"etc_{tag}",
        ),
        "symlink_dotdot_then_file": (
            make_tar([ok, (tinfo(f"a_{tag}", tarfile.SYMTYPE, 0o777, linkname="../.."), None), (f"a_{tag}/{evil}", b"x")]),
            400,
            f"a_{tag}",
        ),
        "symlink_dotdot_alone": (
            make_tar([ok, (tinfo(f"a_{tag}", tarfile.SYMTYPE, 0o777, linkname="../.."), None)]),
            400,
            f"a_{tag}",
        ),
        "symlink_escape_via_subdir": (
            make_tar([ok, (tinfo(f"d_{tag}/l", tarfile.SYMTYPE, 0o777, linkname="../../x"), None)]),
            400,
            f"d_{tag}",
        ),
        "hardlink_to_etc_passwd": (
            make_tar([ok, (tinfo(f"hl_{tag}", tarfile.LNKTYPE, 0o644, linkname="/etc/passwd"), None)]),
            400,
            f"hl_{tag}",
        ),
        "hardlink_dotdot": (
            make_tar([ok, (tinfo(f"hl_{tag}", tarfile.LNKTYPE, 0o644, linkname="../../state.db"), None)]),
            400,
            f"hl_{tag}",
        ),
        "char_device": (
            make_tar([ok, (tinfo(f"dev_{tag}", tarfile.CHRTYPE, 0o666, devmajor=1, devminor=3), None)]),
            400,
            f"dev_{tag}",
        ),
        "block_device": (
            make_tar([ok, (tinfo(f"blk_{tag}", tarfile.BLKTYPE, 0o660, devmajor=7, devminor=0), None)]),
            400,
            f"blk_{tag}",
        ),
        "fifo": (
            make_tar([ok, (tinfo(f"fifo_{tag}", tarfile.FIFOTYPE, 0o644), None)]),
            400,
            f"fifo_{tag}",
        ),
        "gzip_bomb": (make_tar([ok, (f"bomb_{tag}", big)]), 413, None),
        "many_small_files_past_byte_limit": (
            make_tar([ok] + [(f"part{i}_{tag}", b"\1" * (MAX_EXTRACT_BYTES // 4)) for i in range(5)]),
            413,
            None,
        ),
        "too_many_entries": (
            make_tar([ok] + [(f"f{i:03d}_{tag}", b"") for i in range(MAX_EXTRACT_ENTRIES + 5)]),
            413,
            None,
        ),
        "garbage": (os.urandom(4096), 400, None),
        "truncated_gzip": (notebook_archive()[: len(notebook_archive()) // 2], 400, None),
        "gzip_of_garbage": (gzip.compress(os.urandom(2048)), 400, None),
    }


HOSTILE_CASES = sorted(_hostile("x"))


def _evil_paths(server: Sandboxd, tag: str) -> list[Path]:
    """Every file or link whose name carries the tag, anywhere it could have landed:
    the whole temp root (data dir and its parent), /tmp, /etc and the root's parent."""
    found = []
    for dirpath, dirnames, filenames in os.walk(server.root):
        found += [Path(dirpath) / n for n in dirnames + filenames if tag in n]
    for top in {Path("/tmp"), Path("/etc"), server.root.parent, Path("/")}:
        found += [top / n for n in os.listdir(top) if tag in n]
    return found


@pytest.mark.parametrize("case", HOSTILE_CASES)
def test_hostile_archive(server, seeded, case):
    api, sid, members = seeded
    tag = uuid.uuid4().hex[:12]
    data, status, token = _hostile(tag)[case]
    assert len(data) <= MAX_UPLOAD, f"test archive too big for the upload cap: {len(data)}"
    api.upload(sid, data)  # the PUT itself stores bytes; extraction is what refuses
    r = api.initialize(sid)
    detail = assert_detail(r, status)
    if token is not None:
        assert token in detail, f"detail should name the entry {token!r}: {detail!r}"
    # workspace exactly as before
    assert read_tar(api.dump_bytes(sid)) == members
    assert_json(api.get(sid), 200)
    # nothing anywhere carries the tag (no partial extraction, nothing outside)
    leftovers = _evil_paths(server, tag)
    for p in leftovers:  # do not leave a mess behind on a failing server
        try:
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p)
            else:
                p.unlink()
        except OSError:
            pass
    assert not leftovers, f"found {leftovers}"
    # a later reset gives the last good initialize (the seed)
    assert_json(api.reset(sid), 200)
    assert read_tar(api.dump_bytes(sid)) == members


def test_tar_paths_really_are_hostile():
    """Guard: python's tarfile wrote the names/links as given (no sanitizing)."""
    data = _hostile("t")["absolute"][0]
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        assert tar.getnames()[1] == "/tmp/evil_t"
    data = _hostile("t")["dotdot"][0]
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        assert tar.getnames()[1] == "../evil_t"
    data = _hostile("t")["char_device"][0]
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        assert tar.getmembers()[1].ischr()


def test_entries_exactly_at_limit_accepted(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    data = make_tar([(f"f{i:03d}", b"") for i in range(MAX_EXTRACT_ENTRIES)])
    owner.upload_and_initialize(sid, data)
    assert len(tar_names(owner.dump_bytes(sid))) == MAX_EXTRACT_ENTRIES + 1


def test_bytes_exactly_at_limit_accepted(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    data = make_tar([("a", b"\0" * (MAX_EXTRACT_BYTES // 2)), ("b", b"\0" * (MAX_EXTRACT_BYTES // 2))])
    owner.upload_and_initialize(sid, data)
    assert tar_names(owner.dump_bytes(sid)) == [".", "./a", "./b"]


# --------------------------------------------------------------------------- initialize replaces, reset


def test_initialize_replaces_workspace(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    owner.upload_and_initialize(sid, seed_archive())
    owner.upload_and_initialize(sid, make_tar([("only.txt", b"only")]))
    members = read_tar(owner.dump_bytes(sid))
    assert [m["name"] for m in members] == [".", "./only.txt"]
    assert members[1]["data"] == b"only"


def test_reset_response_shape(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    body = assert_json(owner.reset(sid), 200)
    assert list(body.keys()) == ["sandbox_id", "status", "message"]
    assert body["sandbox_id"] == sid
    assert body["status"] in ("idle", "occupied", "error")
    assert isinstance(body["message"], str) and body["message"]


def test_reset_without_initialize_is_empty(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    assert_json(owner.reset(sid), 200)
    assert tar_names(owner.dump_bytes(sid)) == ["."]
    # an upload that was never initialized does not count either
    owner.upload(sid, seed_archive())
    assert_json(owner.reset(sid), 200)
    assert tar_names(owner.dump_bytes(sid)) == ["."]


def test_reset_restores_last_initialize(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    a = make_tar([("a.txt", b"version A")])
    b = make_tar([("b.txt", b"version B")])
    owner.upload_and_initialize(sid, a)
    owner.upload(sid, b)  # uploaded, not initialized
    assert_json(owner.reset(sid), 200)
    assert read_tar(owner.dump_bytes(sid))[1]["data"] == b"version A"
    assert tar_names(owner.dump_bytes(sid)) == [".", "./a.txt"]
    # initialize now picks the latest upload (B); reset then gives B
    assert_json(owner.initialize(sid), 200)
    assert tar_names(owner.dump_bytes(sid)) == [".", "./b.txt"]
    assert_json(owner.reset(sid), 200)
    assert tar_names(owner.dump_bytes(sid)) == [".", "./b.txt"]
    # the sandbox keeps its identity across resets
    assert_json(owner.get(sid), 200)
