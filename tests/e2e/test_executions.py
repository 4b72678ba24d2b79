"""The execution API end to end: execution-upload-url, execute,
execution-status, execution-logs (byte cursor) and export-artifacts, against
real jails. Validation answers like the reference (422 shapes), bad input
changes nothing."""
from __future__ import annotations

import time

import pytest

from conftest import make_tar, not_found_detail, tar_files, tar_names, tinfo, wait_until


def files_tar(files: dict[str, bytes]) -> bytes:
    return make_tar([(tinfo(name, size=len(data)), data) for name, data in files.items()])


def upload_execution(api, sid: str, name: str, files: dict[str, bytes]) -> dict:
    r = api.http.post(f"/local-sandbox/{sid}/execution-upload-url", json={"execution_name": name})
    assert r.status_code == 200, r.text
    body = r.json()
    assert list(body) == ["upload_url", "expires_in_minutes"]
    put = api.server.put_object(body["upload_url"], files_tar(files))
    assert put.status_code == 200, put.text
    return body


def execute(api, sid: str, name: str):
    return api.http.post(f"/local-sandbox/{sid}/execute", json={"execution_name": name})


def status(api, sid: str, name: str):
    return api.http.get(f"/local-sandbox/{sid}/execution-status", params={"execution_name": name})


def logs(api, sid: str, name: str, cursor=None):
    params = {"execution_name": name}
    if cursor is not None:
        params["cursor"] = cursor
    return api.http.get(f"/local-sandbox/{sid}/execution-logs", params=params)


def finish(api, sid: str, name: str, timeout: float = 60) -> str:
    final = {}

    def done():
        r = status(api, sid, name)
        assert r.status_code == 200, r.text
        final["s"] = r.json()["status"]
        return final["s"] in ("completed", "failed")

    wait_until(done, timeout, interval=0.05, what=f"execution {name} to finish")
    return final["s"]


def run(api, sid: str, name: str, main: str, **extra: bytes) -> tuple[str, str]:
    upload_execution(api, sid, name, {"main.py": main.encode(), **extra})
    r = execute(api, sid, name)
    assert r.status_code == 200, r.text
    assert r.json() == {
        "message": f"Execution '{name}' started in the background; poll /execution-logs to follow it",
        "execution_name": name,
    }
    st = finish(api, sid, name)
    body = logs(api, sid, name).json()
    return st, body["logs"]


@pytest.fixture
def sandbox(owner):
    sid = owner.acquire_ok()["local_sandbox_id"]
    yield sid
    owner.release(sid)


def test_execution_runs_main_py_in_its_directory_with_the_workspace_env(owner, sandbox):
    owner.upload_and_initialize(sandbox, files_tar({"seed.txt": b"seeded\n"}))
    main = (
        "import os\n"
        "print(os.getcwd())\n"
        "print(os.environ['AGENT_WORKSPACE'])\n"
        "print(open('/data/seed.txt').read(), end='')\n"
        "open('/data/made-by-exec.txt', 'w').write('x')\n"
        "open('output.txt', 'w').write('result')\n"
    )
    st, text = run(owner, sandbox, "eval_1", main)
    assert st == "completed"
    assert text == "/exec/eval_1\n/data\nseeded\n"
    # /data changes are the sandbox's: they show in the dump.
    assert "./made-by-exec.txt" in tar_names(owner.dump_bytes(sandbox))


def test_logs_stream_by_byte_cursor(owner, sandbox):
    main = "import time\nfor i in range(3):\n    print('line', i, 'é', flush=True)\n    time.sleep(0.3)\n"
    upload_execution(owner, sandbox, "stream", {"main.py": main.encode()})
    assert execute(owner, sandbox, "stream").status_code == 200
    seen, cursor, statuses = b"", 0, set()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        r = logs(owner, sandbox, "stream", cursor)
        assert r.status_code == 200, r.text
        body = r.json()
        assert list(body) == ["status", "logs", "cursor"]
        statuses.add(body["status"])
        seen += body["logs"].encode()
        assert body["cursor"] == cursor + len(body["logs"].encode())
        cursor = body["cursor"]
        if body["status"] == "completed" and not body["logs"]:
            break
        time.sleep(0.1)
    assert seen == "".join(f"line {i} é\n" for i in range(3)).encode()
    assert "running" in statuses
    # Reading past the end returns nothing and keeps the cursor.
    assert logs(owner, sandbox, "stream", cursor).json() == {"status": "completed", "logs": "", "cursor": cursor}
    assert logs(owner, sandbox, "stream", 10**9).json() == {"status": "completed", "logs": "", "cursor": 10**9}
    # A cursor in the middle returns the tail.
    assert logs(owner, sandbox, "stream", 7).json()["logs"] == seen[7:].decode()


def test_failing_program_and_missing_main_py_fail(owner, sandbox):
    st, text = run(owner, sandbox, "boom", "import sys\nprint('before')\nsys.exit(3)\n")
    assert (st, text) == ("failed", "before\n")
    upload_execution(owner, sandbox, "nomain", {"other.py": b"print(1)\n"})
    assert execute(owner, sandbox, "nomain").status_code == 200
    assert finish(owner, sandbox, "nomain") == "failed"
    assert "main.py" in logs(owner, sandbox, "nomain").json()["logs"]


def test_requirements_without_a_package_source_fail_with_a_reason(owner, sandbox):
    st, text = run(owner, sandbox, "deps", "print('never')\n", **{"requirements.txt": b"# pinned\nrequests==2.31.0\n"})
    assert st == "failed"
    assert text == (
        "sandboxd: cannot install requirements.txt: no package index is reachable (this deployment gives "
        "sandboxes no network access; start sandboxd with --sandbox-egress to allow it)\n"
    )
    st, text = run(owner, sandbox, "apt", "print('never')\n", **{"packages.txt": b"jq\n"})
    assert st == "failed"
    assert text.startswith("sandboxd: cannot install packages.txt:")
    # Comments and blank lines ask for nothing: main.py runs.
    st, text = run(owner, sandbox, "nodeps", "print('ran')\n", **{"requirements.txt": b"# none\n\n"})
    assert (st, text) == ("completed", "ran\n")


def test_artifacts_are_the_execution_directory(owner, sandbox):
    st, _ = run(owner, sandbox, "art", "import os\nos.mkdir('out')\nopen('out/r.json','w').write('{}')\n")
    assert st == "completed"
    r = owner.http.post(f"/local-sandbox/{sandbox}/export-artifacts", json={"execution_name": "art"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert list(body) == ["download_url", "expires_in_minutes"]
    data = owner.server.get_object(body["download_url"])
    assert data.status_code == 200
    assert tar_names(data.content) == [".", "./main.py", "./out", "./out/r.json"]
    assert tar_files(data.content)["./out/r.json"] == b"{}"


def test_executing_a_name_again_replaces_its_directory(owner, sandbox):
    run(owner, sandbox, "again", "open('first.txt','w').write('1')\n")
    st, text = run(owner, sandbox, "again", "import os\nprint(sorted(os.listdir('.')))\n")
    assert (st, text) == ("completed", "['main.py']\n")


def test_execute_while_running_is_a_conflict(owner, sandbox):
    upload_execution(owner, sandbox, "slow", {"main.py": b"import time\ntime.sleep(30)\n"})
    assert execute(owner, sandbox, "slow").status_code == 200
    wait_until(lambda: status(owner, sandbox, "slow").json()["status"] == "running", 10)
    r = execute(owner, sandbox, "slow")
    assert r.status_code == 409
    assert r.json() == {"detail": "Execution 'slow' is still running; wait for it to finish before executing it again"}


def test_unknown_executions_and_sandboxes_are_not_found(owner, other_owner, sandbox):
    detail = {
        "detail": f"Execution 'nope' not found in local sandbox {sandbox}: upload its archive, then call "
        f"POST /local-sandbox/{sandbox}/execute"
    }
    assert status(owner, sandbox, "nope").json() == detail
    assert logs(owner, sandbox, "nope").status_code == 404
    r = owner.http.post(f"/local-sandbox/{sandbox}/export-artifacts", json={"execution_name": "nope"})
    assert (r.status_code, r.json()) == (404, detail)
    # Another owner's sandbox does not exist for them.
    for r in (
        status(other_owner, sandbox, "x"),
        execute(other_owner, sandbox, "x"),
        other_owner.http.post(f"/local-sandbox/{sandbox}/execution-upload-url", json={"execution_name": "x"}),
    ):
        assert (r.status_code, r.json()) == (404, not_found_detail(sandbox))


def test_execute_without_an_upload_is_refused(owner, sandbox):
    r = execute(owner, sandbox, "never")
    assert r.status_code == 400
    assert r.json()["detail"].startswith("No archive has been uploaded for execution 'never'")


def sandbox_snapshot(server, sid: str) -> dict:
    """{relative path: (type, size)} of one sandbox's files (agent.log aside)."""
    root = server.sandbox_dir(sid)
    return {
        str(p.relative_to(root)): (p.is_dir(), p.lstat().st_size if p.is_file() else 0)
        for p in root.rglob("*")
        if p.name != "agent.log"
    }


@pytest.mark.parametrize("name", ["", ".hidden", "../up", "a/b", "x" * 129, "sp ace"])
def test_unsafe_execution_names_are_refused(owner, sandbox, name):
    # (Only this sandbox: earlier tests' releases finish in the background.)
    before = sandbox_snapshot(owner.server, sandbox)
    r = owner.http.post(f"/local-sandbox/{sandbox}/execution-upload-url", json={"execution_name": name})
    assert r.status_code == 400
    assert r.json() == {
        "detail": "execution_name must be 1 to 128 letters, digits, '.', '_' or '-', not starting with '.'"
    }
    assert execute(owner, sandbox, name).status_code == 400
    assert sandbox_snapshot(owner.server, sandbox) == before


@pytest.mark.parametrize(
    "body,detail",
    [
        (None, [{"type": "missing", "loc": ["body"], "msg": "Field required", "input": None}]),
        ({}, [{"type": "missing", "loc": ["body", "execution_name"], "msg": "Field required", "input": {}}]),
        ({"execution_name": 5}, [{"type": "string_type", "loc": ["body", "execution_name"],
                                  "msg": "Input should be a valid string", "input": 5}]),
        ([1], [{"type": "model_attributes_type", "loc": ["body"],
                "msg": "Input should be a valid dictionary or object to extract fields from", "input": [1]}]),
    ],
)
@pytest.mark.parametrize("path", ["execution-upload-url", "execute", "export-artifacts"])
def test_body_validation_is_pydantic_shaped(owner, sandbox, path, body, detail):
    kw = {} if body is None else {"json": body}
    r = owner.http.post(f"/local-sandbox/{sandbox}/{path}", **kw)
    assert r.status_code == 422, r.text
    assert r.json() == {"detail": detail}


def test_query_validation_is_pydantic_shaped(owner, sandbox):
    r = owner.http.get(f"/local-sandbox/{sandbox}/execution-status")
    assert r.json() == {"detail": [{"type": "missing", "loc": ["query", "execution_name"], "msg": "Field required",
                                    "input": None}]}
    r = owner.http.get(f"/local-sandbox/{sandbox}/execution-logs", params={"execution_name": "a", "cursor": "-1"})
    assert r.status_code == 422
    assert r.json()["detail"][0]["type"] == "greater_than_equal"
    assert r.json()["detail"][0]["loc"] == ["query", "cursor"]
    r = owner.http.get(f"/local-sandbox/{sandbox}/execution-logs", params={"execution_name": "a", "cursor": "x"})
    assert r.json()["detail"][0]["type"] == "int_parsing"
    r = owner.http.post(f"/local-sandbox/{sandbox}/execute", params={"region": "eu"}, json={"execution_name": "a"})
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["query", "region"]


def test_executions_survive_a_crash_of_sandboxd(make_server):
    s = make_server()
    api = s.new_owner()
    sid = api.acquire_ok()["local_sandbox_id"]
    st, text = run(api, sid, "before", "print('done before')\n")
    assert (st, text) == ("completed", "done before\n")
    upload_execution(api, sid, "during", {"main.py": b"import time\ntime.sleep(2)\nprint('finished')\n"})
    assert execute(api, sid, "during").status_code == 200
    s.restart(kill=True)
    api = s.client(api.key, api.owner)
    assert status(api, sid, "before").json() == {"status": "completed"}
    assert finish(api, sid, "during") == "completed"
    assert logs(api, sid, "during").json()["logs"] == "finished\n"
