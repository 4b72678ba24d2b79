"""TTL expiry (test clock + fast reaper), persistence across kill -9 / SIGTERM
restarts, expiry and release that span a restart, concurrent acquires."""

from __future__ import annotations

import signal
import threading
import time

import httpx

from conftest import (
    HTTP_TIMEOUT,
    assert_json,
    make_tar,
    not_found_detail,
    notebook_archive,
    read_tar,
    release_message,
    reserve_port,
    wait_until,
)

REAPER = ["--reaper-interval-ms", "200"]


def gone(api, server, sid) -> bool:
    r = api.get(sid)
    assert r.status_code in (200, 404), (r.status_code, r.text)
    return r.status_code == 404 and not server.sandbox_dir(sid).exists()


def test_ttl_expiry(make_server):
    s = make_server(extra_args=REAPER)
    api = s.new_owner()
    sid = api.acquire_ok(ttl_seconds=60)["local_sandbox_id"]
    keep = api.acquire_ok(ttl_seconds=3600)["local_sandbox_id"]
    api.upload_and_initialize(sid, notebook_archive())
    assert s.sandbox_dir(sid).is_dir()
    time.sleep(0.5)  # a couple of reaper rounds at offset 0: nothing happens
    assert_json(api.get(sid), 200)

    s.set_clock(61)
    wait_until(lambda: gone(api, s, sid), timeout=3, what="ttl-60 sandbox released and its directory removed")
    assert_json(api.get(sid), 404, not_found_detail(sid))
    listing = api.list_ok()
    assert [x["local_sandbox_id"] for x in listing["local_sandboxes"]] == [keep]
    assert listing["total_count"] == 1
    assert s.sandbox_dir(keep).is_dir()
    for path in ("reset", "upload-url", "initialize"):
        assert_json(api.request("POST", f"/local-sandbox/{sid}/{path}"), 404, not_found_detail(sid))


def test_null_ttl_never_reaped(make_server):
    s = make_server(extra_args=REAPER)
    api = s.new_owner()
    forever = api.acquire_ok(ttl_seconds=None)["local_sandbox_id"]
    witness = api.acquire_ok(ttl_seconds=60)["local_sandbox_id"]
    s.set_clock(10 * 86400)
    wait_until(lambda: gone(api, s, witness), timeout=3, what="witness (ttl 60) reaped")
    time.sleep(0.6)  # a few more reaper rounds
    assert_json(api.get(forever), 200)
    assert s.sandbox_dir(forever).is_dir()
    assert api.count() == 1


def test_ttl_release_via_is_ttl_flag(make_server):
    """DELETE ?is_ttl=true is a release like any other for the caller."""
    s = make_server()
    api = s.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    assert_json(api.release(sid, is_ttl="true"), 200, {"message": release_message(sid)})
    wait_until(lambda: gone(api, s, sid), timeout=5, what="released")


def _state(api, s, sid):
    return assert_json(api.get(sid), 200), read_tar(api.dump_bytes(sid)), api.list_ok()


def _persistence(make_server, kill: bool):
    port = reserve_port()
    public = f"http://127.0.0.1:{port}"
    s = make_server(extra_args=REAPER, public_url=public)
    api = s.new_owner()
    key, owner_name = api.key, api.owner
    admin_key = s.admin_key
    sid = api.acquire_ok(ttl_seconds=3600)["local_sandbox_id"]
    forever = api.acquire_ok(ttl_seconds=None, server_names="ALL")["local_sandbox_id"]
    api.upload_and_initialize(sid, notebook_archive())
    info, members, listing = _state(api, s, sid)
    info_forever = assert_json(api.get(forever), 200)
    for item in info["servers"]:
        assert item["mcp_server_url"].startswith(f"{public}/"), item["mcp_server_url"]

    s.restart(kill=kill)

    assert s.admin_key == admin_key
    api = s.client(key, owner_name)  # same key still valid
    info2, members2, listing2 = _state(api, s, sid)
    assert info2 == info  # identical ids, servers, urls, timestamps, status
    assert members2 == members
    assert listing2 == listing
    assert assert_json(api.get(forever), 200) == info_forever
    # the sandbox still works after the restart
    r = api.reset(sid)
    assert r.status_code == 200, r.text
    assert read_tar(api.dump_bytes(sid)) == members
    # and TTLs survived: 3600 s for sid, none for `forever`
    s.set_clock(3600 + 5)
    wait_until(lambda: gone(api, s, sid), timeout=3, what="ttl-3600 sandbox reaped after restart")
    time.sleep(0.5)
    assert_json(api.get(forever), 200)


def test_persistence_after_kill9(make_server):
    _persistence(make_server, kill=True)


def test_persistence_after_sigterm(make_server):
    _persistence(make_server, kill=False)


def test_sigterm_exits_cleanly(make_server):
    s = make_server()
    api = s.new_owner()
    api.acquire_ok()
    rc = s.stop()
    assert rc == 0, f"exit code after SIGTERM: {rc}"


def test_sigterm_with_idle_keepalive_connection_exits_cleanly(make_server):
    """Clients keep pooled connections open; SIGTERM must still shut down cleanly
    (and the state must be intact afterwards)."""
    s = make_server()
    api = s.new_owner()
    key = api.key
    sid = api.acquire_ok()["local_sandbox_id"]
    held = httpx.Client(base_url=s.base, headers={"Authorization": f"Bearer {key}"}, timeout=HTTP_TIMEOUT)
    try:
        assert held.get(f"/local-sandbox/{sid}").status_code == 200  # connection stays open (keep-alive)
        s.proc.send_signal(signal.SIGTERM)
        rc = s.proc.wait(timeout=10)
    finally:
        held.close()
    s.proc = None
    assert rc == 0, f"exit code after SIGTERM with an open keep-alive connection: {rc}"
    s.start()
    assert_json(s.client(key).get(sid), 200)


def test_expiry_while_down(make_server):
    s = make_server(extra_args=REAPER)
    api = s.new_owner()
    key = api.key
    sid = api.acquire_ok(ttl_seconds=60)["local_sandbox_id"]
    keep = api.acquire_ok(ttl_seconds=3600)["local_sandbox_id"]
    api.upload_and_initialize(sid, notebook_archive())
    s.stop()
    s.set_clock(120)
    s.start()
    api = s.client(key)
    wait_until(lambda: gone(api, s, sid), timeout=3, what="sandbox expired while down released after start")
    assert_json(api.get(keep), 200)


def test_release_interrupted_by_kill9_finishes_after_restart(make_server):
    s = make_server(extra_args=REAPER)
    api = s.new_owner()
    key = api.key
    sid = api.acquire_ok()["local_sandbox_id"]
    keep = api.acquire_ok()["local_sandbox_id"]
    # give the release some work: a workspace with many files
    api.upload_and_initialize(sid, make_tar([(f"d{i // 50}/f{i}", b"x" * 100) for i in range(1000)]))
    assert_json(api.release(sid), 200, {"message": release_message(sid)})
    s.kill9()
    s.start()
    api = s.client(key)
    assert_json(api.get(sid), 404, not_found_detail(sid))
    wait_until(lambda: gone(api, s, sid), timeout=5, what="interrupted release finished after restart")
    assert [x["local_sandbox_id"] for x in api.list_ok()["local_sandboxes"]] == [keep]
    assert s.sandbox_dir(keep).is_dir()


def test_orphan_directory_not_served(make_server):
    """A directory under sandboxes/ that the database does not know is not served
    and does not break start-up (reconciliation)."""
    s = make_server()
    api = s.new_owner()
    key = api.key
    sid = api.acquire_ok()["local_sandbox_id"]
    s.stop()
    orphan = s.data_dir / "sandboxes" / "00000000-0000-4000-8000-000000000000"
    orphan.mkdir(parents=True)
    (orphan / "junk.txt").write_text("junk")
    s.start()
    api = s.client(key)
    assert_json(api.get(sid), 200)
    assert_json(api.get(orphan.name), 404, not_found_detail(orphan.name))
    assert api.count() == 1


def test_concurrent_acquires(make_server):
    s = make_server()
    owner = s.new_owner()
    results: list = [None] * 20
    barrier = threading.Barrier(20)

    def worker(i):
        with httpx.Client(base_url=s.base, headers={"Authorization": f"Bearer {owner.key}"}, timeout=HTTP_TIMEOUT) as c:
            barrier.wait()
            try:
                r = c.post("/local-sandbox", json={"server_names": ["filesystem", "git", "terminal"]})
                results[i] = (r.status_code, r.json() if r.status_code == 201 else r.text)
            except Exception as exc:  # noqa: BLE001 - report, do not hang
                results[i] = ("error", repr(exc))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(r is not None and r[0] == 201 for r in results), results
    ids = [r[1]["local_sandbox_id"] for r in results]
    assert len(set(ids)) == 20
    server_ids = [srv["id"] for r in results for srv in r[1]["servers"]]
    assert len(set(server_ids)) == 60
    tokens = {r[1]["servers"][0]["mcp_server_url"].rsplit("token=", 1)[1] for r in results}
    assert len(tokens) == 20
    listing = owner.list_ok()
    assert listing["total_count"] == 20
    assert sorted(x["local_sandbox_id"] for x in listing["local_sandboxes"]) == sorted(ids)
    for sid in ids:
        assert s.sandbox_dir(sid).is_dir()


def test_concurrent_mixed_operations(make_server):
    """Parallel initialize/dump/release on different sandboxes of one owner."""
    s = make_server()
    owner = s.new_owner()
    sids = [owner.acquire_ok()["local_sandbox_id"] for _ in range(8)]
    errors: list = []

    def worker(sid, release):
        try:
            api = s.client(owner.key)
            api.upload_and_initialize(sid, notebook_archive())
            assert [m["name"] for m in read_tar(api.dump_bytes(sid))] == [
                ".", "./config.json", "./hello.txt", "./notes.md"
            ]
            if release:
                r = api.release(sid)
                assert r.status_code == 200, r.text
        except BaseException as exc:  # noqa: BLE001
            errors.append((sid, repr(exc)))

    threads = [threading.Thread(target=worker, args=(sid, i % 2 == 0)) for i, sid in enumerate(sids)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    remaining = sorted(x["local_sandbox_id"] for x in owner.list_ok()["local_sandboxes"])
    assert remaining == sorted(sids[1::2])
    for sid in sids[0::2]:
        wait_until(lambda sid=sid: not s.sandbox_dir(sid).exists(), timeout=5, what=f"{sid} dir removed")


def test_double_release_race(make_server):
    """Two simultaneous DELETEs of one sandbox: exactly one 200, the other 404."""
    s = make_server()
    owner = s.new_owner()
    for _ in range(5):
        sid = owner.acquire_ok()["local_sandbox_id"]
        codes = []
        barrier = threading.Barrier(2)

        def worker():
            with httpx.Client(base_url=s.base, headers={"Authorization": f"Bearer {owner.key}"}, timeout=HTTP_TIMEOUT) as c:
                barrier.wait()
                codes.append(c.delete(f"/local-sandbox/{sid}").status_code)

        ts = [threading.Thread(target=worker) for _ in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(timeout=30)
        assert sorted(codes) == [200, 404], codes
