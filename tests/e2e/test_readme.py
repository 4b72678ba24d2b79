"""The top README, run as written.

Its first set-up command, `./scripts/start.sh`, ends in `exec ./build/sandboxd
"$@"` from the repository root: sandboxd with no flags at all, so with every
embedded default (127.0.0.1:8080, a *relative* `./sandboxd-data`). This test
starts the binary under test exactly so, from a fresh directory that stands in
for the repository root (`build/` in it links to the binaries under test), with
no SANDBOXD_* variable in its environment. Then it runs the README's worked
examples, the curl flow and the sandboxctl flow, taken from README.md itself
(so the two cannot drift apart), one command at a time in one bash, and checks
every answer. Finally the configuration table is compared with `--help`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from conftest import REPO_ROOT, UUID_RE, destroy_jails, release_message, sandboxd_bin, wait_until

README = REPO_ROOT / "README.md"
START_SH = REPO_ROOT / "scripts" / "start.sh"
DEFAULT_ADDR = "127.0.0.1:8080"
MARK = "@@README-STEP"


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    nxt = text.find("\n## ", start + len(heading))
    return text[start : nxt if nxt >= 0 else len(text)]


def fenced_block(text: str) -> str:
    """The body of the first ```sh block of `text`."""
    m = re.search(r"```sh\n(.*?)```", text, re.S)
    assert m, "no ```sh block"
    return m.group(1)


def commands(block: str) -> list[str]:
    """Shell commands of a README block: blank lines and comment lines dropped,
    a line ending in `\\` or `|` continued by the next."""
    out, cur = [], ""
    for line in block.splitlines():
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        cur += line + "\n"
        if not (line.rstrip().endswith("\\") or line.rstrip().endswith("|")):
            out.append(cur.rstrip("\n"))
            cur = ""
    assert not cur, f"unterminated command: {cur}"
    return out


class Shell:
    """One bash process in `cwd`, fed one command at a time, so variables the
    README sets carry over; each command's output is read up to a marker."""

    def __init__(self, cwd: Path, env: dict):
        self.proc = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], cwd=cwd, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        self.n = 0

    def run(self, command: str, timeout: float = 120) -> tuple[int, str]:
        self.n += 1
        marker = f"{MARK} {self.n}"
        self.proc.stdin.write(f"{command}\nprintf '\\n{marker} %d\\n' $?\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            assert time.monotonic() < deadline, f"timed out: {command}"
            line = self.proc.stdout.readline()
            assert line, f"bash ended during: {command}\n{''.join(lines)}"
            if line.startswith(marker + " "):
                rc = int(line.split()[-1])
                text = "".join(lines)
                # The marker begins with a newline of its own: drop it.
                return rc, text[:-1] if text.endswith("\n") else text
            lines.append(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def readme_host():
    """sandboxd started as `./scripts/start.sh` starts it, in a fresh directory."""
    start_lines = [l for l in START_SH.read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert 'cd "$(dirname "$0")/.."' in start_lines, "start.sh must run from the repository root"
    assert start_lines[-1] == 'exec ./build/sandboxd "$@"', start_lines[-1]

    binary = sandboxd_bin().resolve()
    root = Path(tempfile.mkdtemp(prefix="sandboxd-readme-"))
    (root / "build").mkdir()
    for name in ("sandboxd", "sandbox-agent", "sandboxctl"):
        target = Path(os.environ.get("SANDBOXCTL_BIN", binary.parent / name)) if name == "sandboxctl" else binary.parent / name
        (root / "build" / name).symlink_to(target.resolve())
    env = {k: v for k, v in os.environ.items() if not k.startswith("SANDBOXD_")}
    log = root / "sandboxd.log"
    with httpx.Client(timeout=2) as probe:
        try:
            probe.get(f"http://{DEFAULT_ADDR}/healthz")
            pytest.fail(f"something already listens on {DEFAULT_ADDR}, the README's default address")
        except httpx.TransportError:
            pass
    with open(log, "wb") as fh:
        proc = subprocess.Popen(["./build/sandboxd"], cwd=root, env=env, stdout=fh, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
    data = root / "sandboxd-data"
    try:
        def up():
            assert proc.poll() is None, f"sandboxd exited with {proc.returncode}:\n{log.read_text()}"
            return (data / "listen.addr").is_file() and (data / "listen.addr").read_text() == DEFAULT_ADDR + "\n"
        wait_until(up, 30, what="sandboxd listening on the default address")
        yield root, proc, log
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        destroy_jails(data)
        text = log.read_text(errors="replace")
        shutil.rmtree(root, ignore_errors=True)
        for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"):
            assert marker not in text, text


def test_defaults_start_with_a_relative_data_dir(readme_host):
    root, proc, log = readme_host
    data = root / "sandboxd-data"
    assert oct(data.stat().st_mode & 0o777) == "0o700"
    key = (data / "admin.key").read_text().strip()
    assert oct((data / "admin.key").stat().st_mode & 0o777) == "0o600"
    printed = log.read_text()
    # Printed once at first start, and the same key as the file holds.
    assert f"sandboxd: created the admin API key (shown once; also in {data}/admin.key):\n{key}\n" in printed
    # The embedded pool fills: jails start from the relative data dir.
    with httpx.Client(timeout=5) as c:
        health = wait_until(lambda: (h := c.get(f"http://{DEFAULT_ADDR}/healthz").json())["pool"]["idle"] >= 1 and h,
                            60, what="a warm sandbox")
    assert health["status"] == "ok"
    assert "unusable overlay" not in log.read_text()


def test_curl_example_step_by_step(readme_host):
    root, _, _ = readme_host
    block = fenced_block(section(README.read_text(), "## A worked example with curl"))
    cmds = commands(block)
    sh = Shell(root, {k: v for k, v in os.environ.items() if not k.startswith("SANDBOXD_")})
    try:
        answers = []
        for cmd in cmds:
            rc, out = sh.run(cmd)
            assert rc == 0, f"{cmd}\n-> rc {rc}\n{out}"
            answers.append((cmd, out))
    finally:
        sh.close()
    it = iter(answers)

    def next_answer(prefix: str) -> str:
        cmd, out = next(it)
        assert cmd.startswith(prefix), (prefix, cmd)
        return out

    assert next_answer("KEY=") == ""
    acquired = json.loads(next_answer("curl -s -X POST $API/local-sandbox "))
    sid = acquired["local_sandbox_id"]
    assert UUID_RE.match(sid)
    assert acquired["status"] == "occupied"
    assert [s["server_name"] for s in acquired["servers"]] == ["filesystem", "git", "terminal"]
    for s in acquired["servers"]:
        assert re.fullmatch(
            rf"http://{re.escape(DEFAULT_ADDR)}/{s['server_name']}/mcp/\?local_sandbox_id={sid}&token=[A-Za-z0-9_-]+",
            s["mcp_server_url"]), s["mcp_server_url"]
    assert json.loads((root / "acquire.json").read_text()) == acquired
    assert next_answer("ID=") == ""
    assert next_answer("mkdir -p seed") == ""
    assert next_answer("URL=") == ""
    assert next_answer('curl -s -X PUT "$URL"') == ""  # 200, no body
    assert json.loads(next_answer("curl -s -X POST $API/local-sandbox/$ID/initialize")) == {
        "sandbox_id": sid, "status": "occupied", "message": "Extracted archive to workspace (1 entries, 21 bytes)"}
    assert next_answer("DL=") == ""
    assert next_answer('curl -s "$DL"') == "./\n./hello.txt\n"
    assert next_answer("MCP=") == ""
    assert next_answer("H=") == ""
    assert next_answer("SID=") == ""
    reply = json.loads(next_answer('curl -s "$MCP"'))
    assert reply == {"jsonrpc": "2.0", "id": 2, "result": {
        "content": [{"type": "text", "text": "Hello from sandboxd!\n"}],
        "structuredContent": {"content": "Hello from sandboxd!\n"}}}, reply
    assert json.loads(next_answer("curl -s -X POST $API/local-sandbox/$ID/reset")) == {
        "sandbox_id": sid, "status": "occupied", "message": "Local sandbox reset to the state of its last initialize"}
    assert json.loads(next_answer("curl -s -X DELETE $API/local-sandbox/$ID")) == {"message": release_message(sid)}
    assert next(it, None) is None, "a README command this test does not check"


def test_sandboxctl_example_step_by_step(readme_host):
    root, _, _ = readme_host
    text = README.read_text()
    block = fenced_block(section(text, "The same with `sandboxctl`"))
    cmds = commands(block)
    # The README's placeholders are filled in from earlier answers.
    sh = Shell(root, {k: v for k, v in os.environ.items() if not k.startswith("SANDBOXD_")})
    (root / "seed").mkdir(exist_ok=True)
    (root / "seed" / "hello.txt").write_text("Hello from sandboxd!\n")
    shutil.rmtree(root / "out", ignore_errors=True)
    sid = key_id = None
    outputs = {}
    try:
        for cmd in cmds:
            words = cmd.split("#")[0].split()
            verb = " ".join(words[1:3]) if words[1] == "key" else words[1]
            filled = cmd.replace("<id>", sid or "<id>").replace("<key-id>", key_id or "<key-id>")
            rc, out = sh.run(filled)
            assert rc == 0, f"{filled}\n-> rc {rc}\n{out}"
            outputs[verb] = out
            if verb == "acquire":
                m = re.search(r"\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b", out)
                assert m, out
                sid = m.group(1)
            if verb == "key create":
                m = re.search(r"^Created API key ([0-9a-f-]{36}) ", out)
                assert m, out
                key_id = m.group(1)
    finally:
        sh.close()
    assert list(outputs) == ["acquire", "upload", "dump", "reset", "release", "key create", "key list", "key revoke"]
    T = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00"
    url = rf"http://127\.0\.0\.1:8080/{{}}/mcp/\?local_sandbox_id={sid}&token=[A-Za-z0-9_-]+"
    assert re.fullmatch(
        rf"sandbox    {sid}\nstatus     occupied\ncreated    {T}\nbenchmark  -\n"
        rf"message    Local sandbox acquired with 3 MCP server\(s\)\nservers\n"
        rf"  filesystem  {url.format('filesystem')}\n  git         {url.format('git')}\n"
        rf"  terminal    {url.format('terminal')}\n", outputs["acquire"]), outputs["acquire"]
    assert re.fullmatch(
        rf"pack: 21 B in \d+\.\d s\nupload: \d+ B in \d+\.\d s\nsandbox  {sid}\nstatus   occupied\n"
        r"message  Extracted archive to workspace \(1 entries, 21 bytes\)\n", outputs["upload"]), outputs["upload"]
    assert re.fullmatch(r"download: \d+ B in \d+\.\d s\nExtracted 1 entries \(21 B\) into \./out\.\n",
                        outputs["dump"]), outputs["dump"]
    assert (root / "out" / "hello.txt").read_text() == "Hello from sandboxd!\n"
    assert outputs["reset"] == (f"sandbox  {sid}\nstatus   occupied\n"
                                "message  Local sandbox reset to the state of its last initialize\n")
    assert outputs["release"] == release_message(sid) + "\n"
    assert re.fullmatch(rf"Created API key {key_id} for owner 'alice'\.\n\n    sbx_[A-Za-z0-9_-]+\n\n"
                        r"Store it now: it is shown only once and cannot be retrieved later\.\n",
                        outputs["key create"]), outputs["key create"]
    assert re.fullmatch(rf"ID +OWNER +ADMIN +PREFIX +CREATED +REVOKED\n[0-9a-f-]{{36}}  admin  yes +sbx_\S+  {T}  -\n"
                        rf"{key_id}  alice  no +sbx_\S+  {T}  -\n", outputs["key list"]), outputs["key list"]
    assert re.fullmatch(rf"Revoked API key {key_id} at {T}\.\n", outputs["key revoke"]), outputs["key revoke"]
    key = (root / "sandboxd-data" / "admin.key").read_text().strip()
    with httpx.Client(timeout=5, headers={"Authorization": f"Bearer {key}"}) as c:
        # Released: gone for the API, and its jail and files go in the background.
        assert c.get(f"http://{DEFAULT_ADDR}/local-sandbox/{sid}").status_code == 404
        wait_until(lambda: not (root / "sandboxd-data" / "sandboxes" / sid).exists(), 30, what="release")


def help_options() -> dict[str, dict]:
    """--help of the binary under test: {flag: {"default": text or None, "env": name or None}}."""
    out = subprocess.run([str(sandboxd_bin()), "--help"], capture_output=True, text=True, timeout=30).stdout
    options = {}
    for line in out.splitlines():
        m = re.match(r"\s+(--[a-z0-9-]+)(.*)", line)
        if not m or m.group(1) == "--help":
            continue
        rest = m.group(2)
        # CLI11: "--flag TYPE[:CHECK]=DEFAULT (Env:NAME)"; the type may hold spaces.
        default = re.search(r"=(\S+) \(Env:", rest)
        env = re.search(r"\(Env:([A-Z0-9_]+)\)", rest)
        options[m.group(1)] = {"default": default.group(1) if default else None,
                               "env": env.group(1) if env else None}
    return options


def readme_table() -> dict[str, dict]:
    table = section(README.read_text(), "## Configuration reference")
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].startswith("`--"):
            continue
        flag = cells[0].strip("`").split()[0]
        rows[flag] = {"env": cells[1].strip("`"), "default": cells[2]}
    return rows


def test_configuration_table_matches_help():
    helped, documented = help_options(), readme_table()
    assert list(documented) == list(helped), "README table and --help list different flags (or orders)"
    for flag, h in helped.items():
        d = documented[flag]
        assert d["env"] == h["env"], (flag, d, h)
        if h["default"] is not None:
            assert d["default"] == f"`{h['default']}`", (flag, d, h)
        else:
            # No literal default in --help: the README says in words what it is.
            assert not re.fullmatch(r"`[^`<>]*`", d["default"]), (flag, d)
