// Differential test of the code-runner MCP server: sandboxd's native server
// (in a sandbox: code files under /tmp, working directory /data, MCP
// Streamable HTTP through the gateway) against upstream
// mcp-server-code-runner 0.1.7 (stdio, TMPDIR and working directory in a
// host temp dir). Both run the same interpreters (the jail mirrors the
// host's /usr): upstream gets a PATH whose `python` is the host's
// /usr/bin/python3 and otherwise the jail's default PATH, HOME and LANG.
// The same calls, in the same order, go to both; every CallToolResult must
// be identical after normalising the code file's directory (<TMP>), the
// working directory (<CWD>) and the command of python (ours runs python3
// where the jail has no `python`). Deliberate differences are marked in
// lib/code_runner_cases.mjs.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { MCP_DIR, connectMcp, mcpUnavailableReason, startSandboxd } from './lib/sandboxd.mjs';
import { stripDescriptions } from './lib/filesystem_scenario.mjs';
import { CASES, normalise } from './lib/code_runner_cases.mjs';
import { connectStdioUpstream } from './lib/differential.mjs';

const UPSTREAM_ENTRY = path.join(MCP_DIR, 'node_modules', 'mcp-server-code-runner', 'dist', 'cli.js');
const JAIL_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const CALL_TIMEOUT_MS = 120_000;

/** Upstream over stdio in `root` (work/ is its cwd, tmp/ its TMPDIR, bin/python → python3). */
function startUpstream(root) {
  for (const d of ['work', 'tmp', 'bin']) fs.mkdirSync(path.join(root, d));
  fs.symlinkSync('/usr/bin/python3', path.join(root, 'bin', 'python'));
  return connectStdioUpstream({
    args: [UPSTREAM_ENTRY],
    cwd: path.join(root, 'work'),
    env: { PATH: `${path.join(root, 'bin')}:${JAIL_PATH}`, HOME: '/root', LANG: 'C.UTF-8', TMPDIR: path.join(root, 'tmp') },
    // Upstream logs with console.debug on stdout, between the JSON-RPC lines;
    // the SDK reports each such line here and goes on.
    onerror: () => {},
  });
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('code-runner: sandboxd vs upstream mcp-server-code-runner 0.1.7', () => {
  let sd;
  let sandboxId;
  let ours;
  let upstream;
  let root;
  let unavailable = null;
  let upstreamSide;
  const oursSide = { tmp: /\/tmp\/code-runner-[A-Za-z0-9]{6}/g, cwd: '/data' };

  before(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-cr-diff-')));
    upstream = await startUpstream(root);
    upstreamSide = { tmp: new RegExp(escape(path.join(root, 'tmp')), 'g'), cwd: path.join(root, 'work') };
    sd = await startSandboxd();
    const sandbox = await sd.api.acquire(['code-runner']);
    sandboxId = sandbox.local_sandbox_id;
    const url = sandbox.servers[0].mcp_server_url;
    unavailable = await mcpUnavailableReason(url);
    if (!unavailable) ours = await connectMcp(url);
  });
  after(async () => {
    await ours?.close();
    await upstream?.close();
    if (sandboxId) await sd?.api.release(sandboxId).catch(() => {});
    await sd?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('tools/list: same tool and schema', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const [a, b] = await Promise.all([ours.listTools(), upstream.listTools()]);
    assert.deepEqual(a.tools.map((x) => x.name), b.tools.map((x) => x.name));
    // Upstream's property descriptions are prose (ours: none, as the reference capture).
    assert.deepEqual(a.tools[0].inputSchema, stripDescriptions(b.tools[0].inputSchema));
    assert.deepEqual(ours.getServerVersion(), upstream.getServerVersion());
  });

  for (const c of CASES) {
    test(c.name, async (t) => {
      if (unavailable) return t.skip(unavailable);
      const opts = { timeout: CALL_TIMEOUT_MS };
      const call = (client) => client.callTool({ name: 'run-code', arguments: c.args }, undefined, opts);
      const b = normalise(await call(upstream), upstreamSide);
      const a = normalise(await call(ours), oursSide);
      if (process.env.SANDBOXD_DIFF_VERBOSE === '1') t.diagnostic(JSON.stringify({ ours: a, upstream: b }).slice(0, 1500));
      // Where a case states upstream's text, upstream must still produce it.
      if (c.upstream !== undefined) assert.deepEqual(b, c.upstream, 'upstream itself');
      if (c.deliberate) return c.deliberate.check(a, b);
      assert.deepEqual(a, b);
    });
  }

  test('nothing left in the sandbox\'s /tmp', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const r = await ours.callTool({ name: 'run-code', arguments: { code: 'ls -A /tmp', languageId: 'shellscript' } });
    assert.match(r.content[0].text, /^code-runner-[A-Za-z0-9]{6}\n$/); // only this call's own directory
  });
});
