"""Owners and API keys: isolation between owners, key administration, revocation."""

from __future__ import annotations

import datetime as dt
import hashlib
import stat
import uuid


from conftest import (
    UUID_RE,
    assert_json,
    not_found_detail,
    notebook_archive,
    read_tar,
    make_tar,
)

NOT_ADMIN = {"detail": "This API key is not an admin key"}
KEY_LIST_FIELDS = ["id", "owner", "admin", "prefix", "created_at", "revoked_at"]
KEY_CREATE_FIELDS = ["id", "owner", "admin", "prefix", "created_at", "key"]


def iso(value):
    assert isinstance(value, str)
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def test_owners_see_only_their_own(server):
    alice = server.new_owner()
    bob = server.new_owner()
    a1 = alice.acquire_ok()["local_sandbox_id"]
    a2 = alice.acquire_ok()["local_sandbox_id"]
    b1 = bob.acquire_ok()["local_sandbox_id"]

    la = assert_json(alice.list(), 200)
    lb = assert_json(bob.list(), 200)
    assert la["total_count"] == 2
    assert [s["local_sandbox_id"] for s in la["local_sandboxes"]] == [a1, a2]
    assert lb["total_count"] == 1
    assert [s["local_sandbox_id"] for s in lb["local_sandboxes"]] == [b1]

    assert_json(alice.get(a1), 200)
    assert_json(alice.get(b1), 404, not_found_detail(b1))
    assert_json(bob.get(a1), 404, not_found_detail(a1))
    assert_json(bob.get(b1), 200)


def test_cannot_touch_another_owners_sandbox(server):
    alice = server.new_owner()
    mallory = server.new_owner()
    sid = alice.acquire_ok()["local_sandbox_id"]
    alice.upload_and_initialize(sid, notebook_archive())
    info_before = assert_json(alice.get(sid), 200)
    dump_before = read_tar(alice.dump_bytes(sid))

    assert_json(mallory.release(sid), 404, not_found_detail(sid))
    assert_json(mallory.reset(sid), 404, not_found_detail(sid))
    assert_json(mallory.dump(sid), 404, not_found_detail(sid))
    assert_json(mallory.initialize(sid), 404, not_found_detail(sid))
    assert_json(mallory.upload_url(sid), 404, not_found_detail(sid))
    assert_json(mallory.get(sid), 404, not_found_detail(sid))

    # Alice's sandbox unaffected: same info, same workspace, same directory
    assert assert_json(alice.get(sid), 200) == info_before
    assert read_tar(alice.dump_bytes(sid)) == dump_before
    assert server.sandbox_dir(sid).is_dir()
    assert alice.count() == 1
    assert mallory.count() == 0


def test_sandboxes_belong_to_owners_not_keys(server):
    owner = f"shared-{uuid.uuid4().hex[:8]}"
    k1 = server.new_owner(owner)
    k2 = server.new_owner(owner)
    sid = k1.acquire_ok()["local_sandbox_id"]
    assert [s["local_sandbox_id"] for s in k2.list_ok()["local_sandboxes"]] == [sid]
    assert_json(k2.get(sid), 200)


def test_create_key_response(server):
    admin = server.admin()
    owner = f"o-{uuid.uuid4().hex[:8]}"
    r = admin.request("POST", "/admin/keys", json={"owner": owner, "admin": False})
    body = assert_json(r, 201)
    assert list(body.keys()) == KEY_CREATE_FIELDS
    assert UUID_RE.match(body["id"])
    assert body["owner"] == owner
    assert body["admin"] is False
    assert isinstance(body["key"], str) and len(body["key"]) >= 32
    assert body["key"].startswith(body["prefix"]) and 0 < len(body["prefix"]) < len(body["key"])
    iso(body["created_at"])
    # the new key works
    api = server.client(body["key"])
    assert_json(api.list(), 200, {"local_sandboxes": [], "total_count": 0})


def test_key_list_is_hashed_only(server):
    admin = server.admin()
    created = server.create_key(f"o-{uuid.uuid4().hex[:8]}")
    r = admin.request("GET", "/admin/keys")
    body = assert_json(r, 200)
    assert list(body.keys()) == ["keys"]
    entries = {k["id"]: k for k in body["keys"]}
    assert created["id"] in entries
    for entry in body["keys"]:
        assert list(entry.keys()) == KEY_LIST_FIELDS, entry
        assert "key" not in entry
    entry = entries[created["id"]]
    assert entry["owner"] == created["owner"]
    assert entry["admin"] is False
    assert entry["prefix"] == created["prefix"]
    assert entry["created_at"] == created["created_at"]
    assert entry["revoked_at"] is None
    # the full key appears nowhere in the listing (nor its SHA-256 in hex)
    assert created["key"] not in r.text
    assert hashlib.sha256(created["key"].encode()).hexdigest() not in r.text
    # the admin key is listed too (admin: true)
    assert any(e["admin"] is True for e in body["keys"])


def test_revoked_key_gets_401(server):
    admin = server.admin()
    created = server.create_key(f"o-{uuid.uuid4().hex[:8]}")
    api = server.client(created["key"])
    sid = api.acquire_ok()["local_sandbox_id"]

    r = admin.request("DELETE", f"/admin/keys/{created['id']}")
    body = assert_json(r, 200)
    assert list(body.keys()) == ["id", "revoked_at"]
    assert body["id"] == created["id"]
    iso(body["revoked_at"])

    r = api.list()
    assert_json(r, 401, {"detail": "Invalid API key"})
    assert r.headers.get("www-authenticate") == "Bearer"
    assert_json(api.get(sid), 401, {"detail": "Invalid API key"})
    assert_json(api.acquire(), 401, {"detail": "Invalid API key"})

    listed = {k["id"]: k for k in assert_json(admin.request("GET", "/admin/keys"), 200)["keys"]}
    assert listed[created["id"]]["revoked_at"] == body["revoked_at"]

    # revoking again, or an unknown key: 404
    r = admin.request("DELETE", f"/admin/keys/{created['id']}")
    assert r.status_code == 404, (r.status_code, r.text)
    r = admin.request("DELETE", f"/admin/keys/{uuid.uuid4()}")
    assert r.status_code == 404, (r.status_code, r.text)

    # the owner's sandbox still exists for another key of the same owner
    other = server.new_owner(created["owner"])
    assert_json(other.get(sid), 200)


def test_non_admin_key_on_admin_routes(server):
    api = server.new_owner()
    some_id = server.create_key(f"o-{uuid.uuid4().hex[:8]}")["id"]
    assert_json(api.request("GET", "/admin/keys"), 403, NOT_ADMIN)
    assert_json(api.request("POST", "/admin/keys", json={"owner": "x", "admin": True}), 403, NOT_ADMIN)
    assert_json(api.request("DELETE", f"/admin/keys/{some_id}"), 403, NOT_ADMIN)
    # nothing changed: the key is still active, no key was created for "x"
    keys = assert_json(server.admin().request("GET", "/admin/keys"), 200)["keys"]
    assert {k["id"]: k for k in keys}[some_id]["revoked_at"] is None
    assert not any(k["owner"] == "x" for k in keys)


def test_admin_created_admin_key_can_administer(server):
    created = server.create_key(f"adm-{uuid.uuid4().hex[:8]}", admin=True)
    assert created["admin"] is True
    second_admin = server.client(created["key"])
    assert_json(second_admin.request("GET", "/admin/keys"), 200)


def test_admin_key_file_and_first_start(make_server):
    s = make_server()
    key_file = s.data_dir / "admin.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = s.admin_key
    assert len(key) >= 32
    assert key in s.log_text(1), "the admin key is printed on first start"
    assert_json(s.admin().request("GET", "/admin/keys"), 200)
    s.restart()
    assert s.admin_key == key, "admin.key unchanged across restarts"
    assert key not in s.log_text(2), "the admin key is printed only once (first start)"
    keys = assert_json(s.admin().request("GET", "/admin/keys"), 200)["keys"]
    assert len([k for k in keys if k["admin"]]) == 1, "no second admin key on restart"


def test_owner_isolation_of_dumps(server):
    """Another owner cannot read a dump through the API; each owner's dump is their own."""
    a = server.new_owner()
    b = server.new_owner()
    sa = a.acquire_ok()["local_sandbox_id"]
    sb = b.acquire_ok()["local_sandbox_id"]
    a.upload_and_initialize(sa, make_tar([("a.txt", b"alice")]))
    b.upload_and_initialize(sb, make_tar([("b.txt", b"bob")]))
    assert [m["name"] for m in read_tar(a.dump_bytes(sa))] == [".", "./a.txt"]
    assert [m["name"] for m in read_tar(b.dump_bytes(sb))] == [".", "./b.txt"]
