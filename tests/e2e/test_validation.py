"""Request validation (422 in FastAPI/pydantic v2 shapes), authentication (401),
not-found (404) on every per-sandbox endpoint, 400/404/405/413 edge cases.

The expected 422 bodies are what FastAPI + pydantic 2 produce for the reference
models (AcquireLocalSandboxRequest, query parameters is_ttl: bool and
region: GCSRegion); they were generated with pydantic 2.13 and FastAPI's
error wrapping (loc prefixed with "body"/"query", no "url").
"""

from __future__ import annotations

import json
import time
import uuid

import pytest

from conftest import (
    ALL_SERVERS,
    cgroup_dirs,
    served_servers,
    assert_detail,
    assert_json,
    not_found_detail,
    notebook_archive,
    tar_names,
    wait_until,
)

SERVERS_ENUM_MSG = (
    "Input should be 'filesystem', 'git', 'terminal', 'desktop-commander', 'arxiv', 'excel', "
    "'word', 'powerpoint', 'code-executor', 'code-runner', 'pdf-tools', 'google_cloud', "
    "'poste_email_toolathlon', 'canvas', 'localmemory' or 'playwright'"
)
SERVERS_ENUM_EXPECTED = SERVERS_ENUM_MSG[len("Input should be ") :]
LITERAL_ALL_LOC = "literal['ALL']"


def post_raw(api, content: bytes | str | None, content_type: str | None = "application/json"):
    headers = {}
    if content_type is not None:
        headers["Content-Type"] = content_type
    return api.request("POST", "/local-sandbox", content=content, headers=headers)


def assert_422(r, expected: list[dict]):
    body = assert_json(r, 422)
    assert list(body.keys()) == ["detail"], body
    assert body["detail"] == expected, (
        f"\n got {json.dumps(body['detail'])}\nwant {json.dumps(expected)}"
    )


def assert_union_errors(r, input_value, list_error: dict):
    """The two errors of the server_names union (list branch first, then literal 'ALL')."""
    body = assert_json(r, 422)
    detail = body["detail"]
    assert isinstance(detail, list) and len(detail) == 2, detail
    first, second = detail
    # list branch: loc ["body", "server_names", "list[<enum label>]", ...]
    loc = first["loc"]
    assert loc[:2] == ["body", "server_names"], first
    assert isinstance(loc[2], str) and loc[2].startswith("list[") and "LocalSandboxMCPServer" in loc[2], first
    expected_first = dict(list_error)
    expected_first["loc"] = ["body", "server_names", loc[2], *list_error["loc"]]
    assert first == expected_first, f"\n got {first}\nwant {expected_first}"
    assert second == {
        "type": "literal_error",
        "loc": ["body", "server_names", LITERAL_ALL_LOC],
        "msg": "Input should be 'ALL'",
        "input": input_value,
        "ctx": {"expected": "'ALL'"},
    }, second


# --------------------------------------------------------------------------- 422 on the body


def test_missing_body(owner):
    before = owner.count()
    assert_422(post_raw(owner, None, content_type=None), [
        {"type": "missing", "loc": ["body"], "msg": "Field required", "input": None}
    ])
    assert_422(post_raw(owner, b"", content_type="application/json"), [
        {"type": "missing", "loc": ["body"], "msg": "Field required", "input": None}
    ])
    assert owner.count() == before


def test_json_null_body_is_missing(owner):
    before = owner.count()
    assert_422(post_raw(owner, b"null"), [
        {"type": "missing", "loc": ["body"], "msg": "Field required", "input": None}
    ])
    assert owner.count() == before


@pytest.mark.parametrize(
    "raw,pos",
    [
        (b"{bad", 1),
        (b'{"server_names": ["git"],}', 25),  # trailing comma: error at the '}'
        (b'{"server_names": ', 17),
    ],
)
def test_malformed_json(owner, raw, pos):
    before = owner.count()
    body = assert_json(post_raw(owner, raw), 422)
    detail = body["detail"]
    assert isinstance(detail, list) and len(detail) == 1, detail
    err = detail[0]
    assert list(err.keys()) == ["type", "loc", "msg", "input", "ctx"], err
    assert err["type"] == "json_invalid"
    assert err["loc"] == ["body", pos], f"loc {err['loc']}: Python's json.loads reports position {pos}"
    assert err["msg"] == "JSON decode error"
    assert err["input"] == {}
    assert list(err["ctx"].keys()) == ["error"] and isinstance(err["ctx"]["error"], str) and err["ctx"]["error"]
    assert owner.count() == before


@pytest.mark.parametrize("value", [[1, 2], "x", 5, True])
def test_body_not_an_object(owner, value):
    before = owner.count()
    assert_422(owner.acquire(body=value), [
        {
            "type": "model_attributes_type",
            "loc": ["body"],
            "msg": "Input should be a valid dictionary or object to extract fields from",
            "input": value,
        }
    ])
    assert owner.count() == before


def test_missing_server_names(owner):
    before = owner.count()
    assert_422(owner.acquire(body={}), [
        {"type": "missing", "loc": ["body", "server_names"], "msg": "Field required", "input": {}}
    ])
    assert_422(owner.acquire(body={"ttl_seconds": 120}), [
        {"type": "missing", "loc": ["body", "server_names"], "msg": "Field required", "input": {"ttl_seconds": 120}}
    ])
    assert owner.count() == before


def test_unknown_server_name(owner):
    before = owner.count()
    names = ["filesystem", "nope"]
    r = owner.acquire(body={"server_names": names})
    assert_union_errors(r, names, {
        "type": "enum",
        "loc": [1],
        "msg": SERVERS_ENUM_MSG,
        "input": "nope",
        "ctx": {"expected": SERVERS_ENUM_EXPECTED},
    })
    assert owner.count() == before


@pytest.mark.parametrize("value", ["filesystem", "all", 5, None])
def test_server_names_not_a_list_nor_ALL(owner, value):
    before = owner.count()
    r = owner.acquire(body={"server_names": value})
    assert_union_errors(r, value, {
        "type": "list_type",
        "loc": [],
        "msg": "Input should be a valid list",
        "input": value,
    })
    assert owner.count() == before


@pytest.mark.parametrize(
    "ttl,error",
    [
        (59, {"type": "greater_than_equal", "msg": "Input should be greater than or equal to 60", "ctx": {"ge": 60}}),
        (0, {"type": "greater_than_equal", "msg": "Input should be greater than or equal to 60", "ctx": {"ge": 60}}),
        (-5, {"type": "greater_than_equal", "msg": "Input should be greater than or equal to 60", "ctx": {"ge": 60}}),
        (86401, {"type": "less_than_equal", "msg": "Input should be less than or equal to 86400", "ctx": {"le": 86400}}),
        ("abc", {"type": "int_parsing", "msg": "Input should be a valid integer, unable to parse string as an integer"}),
        (1.5, {"type": "int_from_float", "msg": "Input should be a valid integer, got a number with a fractional part"}),
        ([1], {"type": "int_type", "msg": "Input should be a valid integer"}),
    ],
)
def test_bad_ttl(owner, ttl, error):
    before = owner.count()
    expected = {"type": error["type"], "loc": ["body", "ttl_seconds"], "msg": error["msg"], "input": ttl}
    if "ctx" in error:
        expected["ctx"] = error["ctx"]
    assert_422(owner.acquire(body={"server_names": ["git"], "ttl_seconds": ttl}), [expected])
    assert owner.count() == before


def test_bad_benchmark(owner):
    before = owner.count()
    assert_422(owner.acquire(body={"server_names": ["git"], "benchmark": "X"}), [
        {
            "type": "enum",
            "loc": ["body", "benchmark"],
            "msg": "Input should be 'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'",
            "input": "X",
            "ctx": {"expected": "'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'"},
        }
    ])
    assert owner.count() == before


def test_bad_test_account_email(owner):
    before = owner.count()
    assert_422(owner.acquire(body={"server_names": ["git"], "test_account_email": 5}), [
        {"type": "string_type", "loc": ["body", "test_account_email"], "msg": "Input should be a valid string", "input": 5}
    ])
    assert owner.count() == before


def test_all_errors_reported_in_field_order(owner):
    before = owner.count()
    body = {"ttl_seconds": 59, "test_account_email": 5, "benchmark": "X"}
    assert_422(owner.acquire(body=body), [
        {"type": "missing", "loc": ["body", "server_names"], "msg": "Field required", "input": body},
        {
            "type": "enum",
            "loc": ["body", "benchmark"],
            "msg": "Input should be 'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'",
            "input": "X",
            "ctx": {"expected": "'MCP_Atlas', 'Toolathlon' or 'MCP_Mark'"},
        },
        {"type": "string_type", "loc": ["body", "test_account_email"], "msg": "Input should be a valid string", "input": 5},
        {
            "type": "greater_than_equal",
            "loc": ["body", "ttl_seconds"],
            "msg": "Input should be greater than or equal to 60",
            "input": 59,
            "ctx": {"ge": 60},
        },
    ])
    assert owner.count() == before


# --------------------------------------------------------------------------- 422 on query parameters


def test_is_ttl_not_a_bool(owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    assert_422(owner.release(sid, is_ttl="maybe"), [
        {
            "type": "bool_parsing",
            "loc": ["query", "is_ttl"],
            "msg": "Input should be a valid boolean, unable to interpret input",
            "input": "maybe",
        }
    ])
    # not released
    assert_json(owner.get(sid), 200)
    assert owner.count() == 1


@pytest.mark.parametrize("endpoint", ["upload-url", "initialize", "dump"])
def test_region_not_in_enum(owner, endpoint):
    sid = owner.acquire_ok()["local_sandbox_id"]
    method = "GET" if endpoint == "dump" else "POST"
    r = owner.request(method, f"/local-sandbox/{sid}/{endpoint}", params={"region": "eu"})
    assert_422(r, [
        {
            "type": "enum",
            "loc": ["query", "region"],
            "msg": "Input should be 'us' or 'asia'",
            "input": "eu",
            "ctx": {"expected": "'us' or 'asia'"},
        }
    ])
    assert_json(owner.get(sid), 200)


def test_query_validation_precedes_lookup(owner):
    """FastAPI validates parameters before the handler runs: 422, not 404, for an unknown id."""
    unknown = str(uuid.uuid4())
    r = owner.request("POST", f"/local-sandbox/{unknown}/upload-url", params={"region": "eu"})
    assert r.status_code == 422, (r.status_code, r.text)
    r = owner.release(unknown, is_ttl="maybe")
    assert r.status_code == 422, (r.status_code, r.text)


def test_region_asia_accepted(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    up = assert_json(owner.upload_url(sid, region="asia"), 200)
    assert up["expires_in_minutes"] == 30
    assert server.put_object(up["upload_url"], notebook_archive()).status_code == 200
    init = assert_json(owner.initialize(sid, region="asia"), 200)
    assert init["sandbox_id"] == sid
    d = assert_json(owner.dump(sid, region="asia"), 200)
    got = server.get_object(d["download_url"])
    assert got.status_code == 200
    assert tar_names(got.content) == [".", "./config.json", "./hello.txt", "./notes.md"]


# --------------------------------------------------------------------------- accepted bodies


def test_all_gives_every_served_server_in_enum_order(owner):
    served = served_servers()
    assert "filesystem" in served and len(served) >= 8, served
    body = owner.acquire_ok(server_names="ALL")
    assert [s["server_name"] for s in body["servers"]] == served
    assert len({s["id"] for s in body["servers"]}) == len(served)
    info = assert_json(owner.get(body["local_sandbox_id"]), 200)
    assert [s["server_name"] for s in info["servers"]] == served


def test_a_server_this_build_lacks_is_refused_at_acquire_with_nothing_created(server, owner):
    served = served_servers()
    lacking = [name for name in ALL_SERVERS if name not in served]
    if not lacking:
        pytest.skip("this build has every server of the enum")
    before_count = owner.count()
    before_dirs = sorted(p.name for p in (server.data_dir / "sandboxes").iterdir())
    before_groups = cgroup_dirs(server.data_dir)
    r = owner.acquire(body={"server_names": ["filesystem", lacking[0], "git"]})
    assert_422(r, [{
        "type": "server_unavailable",
        "loc": ["body", "server_names", 1],
        "msg": f"Server '{lacking[0]}' is not available in this deployment: this build of sandboxd does not "
               f"include it (available: {', '.join(served)})",
        "input": lacking[0],
    }])
    assert owner.count() == before_count
    assert sorted(p.name for p in (server.data_dir / "sandboxes").iterdir()) == before_dirs
    assert cgroup_dirs(server.data_dir) == before_groups


def test_server_order_is_the_requested_order(owner):
    names = ["terminal", "filesystem", "git"]
    body = owner.acquire_ok(server_names=names)
    assert [s["server_name"] for s in body["servers"]] == names


@pytest.mark.parametrize("benchmark", ["MCP_Atlas", "Toolathlon", "MCP_Mark"])
def test_benchmark_and_email_echoed(owner, benchmark):
    body = owner.acquire_ok(
        server_names=["filesystem", "git"], benchmark=benchmark, test_account_email="someone@example.com"
    )
    assert body["benchmark"] == benchmark
    assert [s["benchmark"] for s in body["servers"]] == [benchmark, benchmark]
    assert body["test_account_email"] == "someone@example.com"
    info = assert_json(owner.get(body["local_sandbox_id"]), 200)
    assert info["benchmark"] == benchmark
    assert [s["benchmark"] for s in info["servers"]] == [benchmark, benchmark]
    assert info["test_account_email"] == "someone@example.com"


def test_explicit_nulls_accepted_and_shown(owner):
    body = owner.acquire_ok(server_names=["git"], benchmark=None, test_account_email=None, ttl_seconds=None)
    assert body["benchmark"] is None
    assert body["test_account_email"] is None
    assert body["ttl_seconds"] is None
    assert body["expires_at"] is None
    info = assert_json(owner.get(body["local_sandbox_id"]), 200)
    assert (info["benchmark"], info["test_account_email"], info["ttl_seconds"], info["expires_at"]) == (
        None, None, None, None
    )


def test_default_ttl_shown(owner):
    body = owner.acquire_ok(server_names=["git"])
    assert body["ttl_seconds"] == 7200
    assert body["test_account_email"] is None
    info = assert_json(owner.get(body["local_sandbox_id"]), 200)
    assert info["ttl_seconds"] == 7200
    assert info["expires_at"] == body["expires_at"]


@pytest.mark.parametrize("ttl", [60, 86400, 7200, 61])
def test_ttl_bounds_inclusive(owner, ttl):
    body = owner.acquire_ok(server_names=["git"], ttl_seconds=ttl)
    assert body["ttl_seconds"] == ttl
    assert assert_json(owner.get(body["local_sandbox_id"]), 200)["ttl_seconds"] == ttl


def test_unknown_fields_ignored(owner):
    owner.acquire_ok(server_names=["git"], unknown_field=1)


def test_default_ttl_is_7200(make_server):
    """No ttl given: released once the clock passes created_at + 7200 s, not before."""
    s = make_server(extra_args=["--reaper-interval-ms", "100"])
    api = s.new_owner()
    sid = api.acquire_ok(server_names=["git"])["local_sandbox_id"]
    forever = api.acquire_ok(server_names=["git"], ttl_seconds=None)["local_sandbox_id"]
    s.set_clock(7200 - 60)
    time.sleep(0.6)  # several reaper rounds (100 ms): must still be there
    assert_json(api.get(sid), 200)
    s.set_clock(7200 + 5)
    wait_until(lambda: api.get(sid).status_code == 404, timeout=5, what="default-ttl sandbox reaped")
    assert_json(api.get(forever), 200)


# --------------------------------------------------------------------------- 401


ROUTES = [
    ("GET", "/local-sandbox"),
    ("POST", "/local-sandbox"),
    ("GET", "/local-sandbox/{id}"),
    ("DELETE", "/local-sandbox/{id}"),
    ("POST", "/local-sandbox/{id}/reset"),
    ("POST", "/local-sandbox/{id}/upload-url"),
    ("POST", "/local-sandbox/{id}/initialize"),
    ("GET", "/local-sandbox/{id}/dump"),
    ("GET", "/admin/keys"),
    ("POST", "/admin/keys"),
    ("DELETE", "/admin/keys/{id}"),
]


@pytest.mark.parametrize("method,path", ROUTES)
def test_401_without_header(server, owner, method, path):
    sid = owner.acquire_ok()["local_sandbox_id"]
    anon = server.anonymous()
    kwargs = {"json": {"server_names": ["git"]}} if method == "POST" and path == "/local-sandbox" else {}
    r = anon.request(method, path.format(id=sid), **kwargs)
    assert_json(r, 401, {"detail": "Not authenticated"})
    assert r.headers.get("www-authenticate") == "Bearer"
    assert owner.count() == 1
    assert_json(owner.get(sid), 200)


@pytest.mark.parametrize("method,path", ROUTES)
def test_401_with_unknown_key(server, owner, method, path):
    sid = owner.acquire_ok()["local_sandbox_id"]
    bad = server.client("sbx_" + "x" * 40)
    kwargs = {"json": {"server_names": ["git"]}} if method == "POST" and path == "/local-sandbox" else {}
    r = bad.request(method, path.format(id=sid), **kwargs)
    assert_json(r, 401, {"detail": "Invalid API key"})
    assert r.headers.get("www-authenticate") == "Bearer"
    assert owner.count() == 1
    assert_json(owner.get(sid), 200)


def test_401_precedes_422(server):
    anon = server.anonymous()
    r = anon.request("POST", "/local-sandbox", content=b"{bad", headers={"Content-Type": "application/json"})
    assert_json(r, 401, {"detail": "Not authenticated"})


# --------------------------------------------------------------------------- 404


PER_SANDBOX = [
    ("GET", "/local-sandbox/{id}"),
    ("DELETE", "/local-sandbox/{id}"),
    ("POST", "/local-sandbox/{id}/reset"),
    ("POST", "/local-sandbox/{id}/upload-url"),
    ("POST", "/local-sandbox/{id}/initialize"),
    ("GET", "/local-sandbox/{id}/dump"),
]


@pytest.mark.parametrize("method,path", PER_SANDBOX)
@pytest.mark.parametrize("unknown", ["uuid", "not-a-uuid"])
def test_404_unknown_id(owner, method, path, unknown):
    sid = str(uuid.uuid4()) if unknown == "uuid" else "does-not-exist"
    assert_json(owner.request(method, path.format(id=sid)), 404, not_found_detail(sid))


@pytest.mark.parametrize("method,path", PER_SANDBOX)
def test_404_other_owners_id(server, owner, other_owner, method, path):
    theirs = other_owner.acquire_ok()["local_sandbox_id"]
    other_owner.upload_and_initialize(theirs, notebook_archive())
    before = other_owner.dump_bytes(theirs)
    assert_json(owner.request(method, path.format(id=theirs)), 404, not_found_detail(theirs))
    # the other owner's sandbox is untouched
    assert_json(other_owner.get(theirs), 200)
    assert tar_names(other_owner.dump_bytes(theirs)) == tar_names(before)
    assert other_owner.count() == 1
    assert server.sandbox_dir(theirs).is_dir()


@pytest.mark.parametrize("method,path", PER_SANDBOX)
def test_404_released_id(server, owner, method, path):
    sid = owner.acquire_ok()["local_sandbox_id"]
    assert_json(owner.release(sid), 200)
    assert_json(owner.request(method, path.format(id=sid)), 404, not_found_detail(sid))


# --------------------------------------------------------------------------- 400


def test_initialize_without_upload(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    detail = assert_detail(owner.initialize(sid), 400)
    assert "upload" in detail.lower(), detail
    assert tar_names(owner.dump_bytes(sid)) == ["."]
    assert_json(owner.get(sid), 200)


def test_initialize_with_url_issued_but_nothing_put(server, owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    assert_json(owner.upload_url(sid), 200)
    detail = assert_detail(owner.initialize(sid), 400)
    assert "upload" in detail.lower(), detail
    assert tar_names(owner.dump_bytes(sid)) == ["."]


# --------------------------------------------------------------------------- routing, size


@pytest.mark.parametrize("path", ["/nope", "/local-sandbox/x/nope", "/local-sandboxes", "/admin/nope"])
def test_unknown_route(owner, path):
    assert_json(owner.request("GET", path), 404, {"detail": "Not Found"})


@pytest.mark.parametrize(
    "method,path",
    [
        ("PUT", "/local-sandbox"),
        ("PATCH", "/local-sandbox/{id}"),
        ("GET", "/local-sandbox/{id}/initialize"),
        ("GET", "/local-sandbox/{id}/reset"),
        ("POST", "/local-sandbox/{id}/dump"),
        ("GET", "/local-sandbox/{id}/upload-url"),
        ("POST", "/healthz"),
    ],
)
def test_wrong_method(owner, method, path):
    sid = owner.acquire_ok()["local_sandbox_id"]
    assert_json(owner.request(method, path.format(id=sid)), 405, {"detail": "Method Not Allowed"})
    assert_json(owner.get(sid), 200)
    assert owner.count() == 1


def test_json_body_over_1mib(owner):
    before = owner.count()
    body = json.dumps({"server_names": ["git"], "test_account_email": "a" * (1024 * 1024 + 16)}).encode()
    r = post_raw(owner, body)
    assert_detail(r, 413)
    assert owner.count() == before
    # the server is still fine
    owner.acquire_ok(server_names=["git"])


def test_json_body_just_under_1mib_accepted(owner):
    pad = 1024 * 1024 - 200
    body = json.dumps({"server_names": ["git"], "test_account_email": "a" * pad}).encode()
    assert len(body) < 1024 * 1024
    r = post_raw(owner, body)
    assert r.status_code == 201, (r.status_code, r.text[:300])
