// The git MCP server of a sandbox, driven end to end with the official MCP
// TypeScript SDK: acquire ["git"] through the REST API, seed /data from a
// tar.gz holding a git repository (the jail's /data is an overlay: the
// seeded tree is its lower layer, every change git makes lands in the upper
// one), call every tool with ordinary and edge inputs and compare the exact
// results upstream mcp-server-git gives on the same tree
// (lib/git_scenario.mjs), then dump the workspace and check what git wrote.
// A second sandboxd runs with --server-settings to check the commit
// identity setting on a repository that has none.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';

import {
  REFERENCE_DIR, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd,
} from './lib/sandboxd.mjs';
import { CALLS, buildSeed } from './lib/git_scenario.mjs';

function seedArchive(opts) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-git-seed-'));
  try {
    buildSeed(dir, opts);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of a result, with the CPython object address git_show prints normalised. */
function textOf(result) {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text.replace(/object at 0x[0-9a-f]+/g, 'object at 0xADDR');
}

async function acquireSeeded(sd, opts) {
  const sandbox = await sd.api.acquire(['git']);
  assert.equal(sandbox.servers.length, 1);
  assert.equal(sandbox.servers[0].server_name, 'git');
  const url = sandbox.servers[0].mcp_server_url;
  assert.equal(new URL(url).pathname, '/git/mcp/');
  await sd.api.uploadAndInitialize(sandbox.local_sandbox_id, seedArchive(opts));
  return { sandbox, url, unavailable: await mcpUnavailableReason(url) };
}

describe('git server through sandboxd', () => {
  let sd;
  let sandbox;
  let url;
  let unavailable = null;

  before(async () => {
    sd = await startSandboxd();
  });
  after(async () => {
    await sd?.stop();
  });

  test('acquire ["git"] and seed /data with a repository', async () => {
    ({ sandbox, url, unavailable } = await acquireSeeded(sd));
  });

  test('tools/list: the 12 upstream tools with their exact schemas and annotations', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      assert.equal(client.getServerVersion()?.name, 'mcp-git');
      const { tools, nextCursor } = await client.listTools();
      assert.equal(nextCursor, undefined);
      const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'git.json'), 'utf8'));
      assert.deepEqual(tools.map((x) => x.name), ref.tools.map((x) => x.name));
      for (const [i, tool] of tools.entries()) {
        // The SDK client re-orders schema keys; the byte-for-byte check is in git_server_test.
        assert.deepEqual(tool.inputSchema, ref.tools[i].inputSchema, tool.name);
        assert.deepEqual(tool.annotations, ref.tools[i].annotations, tool.name);
        assert.equal(tool.outputSchema, undefined);
        assert.ok(tool.description.length > 20, tool.name);
      }
    } finally {
      await client.close();
    }
  });

  test('every tool, ordinary and edge inputs: upstream\'s exact results', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      for (const [i, c] of CALLS.entries()) {
        const what = `#${i + 1} ${c.tool} ${JSON.stringify(c.args)}`;
        const result = await client.callTool({ name: c.tool, arguments: c.args });
        assert.equal(result.isError ?? false, c.isError, `${what}: ${JSON.stringify(result)}`);
        if (c.match) assert.match(textOf(result), c.match, what);
        else assert.equal(textOf(result), c.text, what);
      }
    } finally {
      await client.close();
    }
  });

  test('invalid arguments and unknown tools are refused', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      let r = await client.callTool({ name: 'git_status', arguments: {} });
      assert.equal(r.isError, true);
      assert.equal(textOf(r), 'MCP error -32602: Input validation error: Invalid arguments for tool git_status: '
        + 'Invalid input: expected string, received undefined at repo_path');
      r = await client.callTool({ name: 'git_log', arguments: { repo_path: '/data/repo', max_count: 'ten' } });
      assert.equal(r.isError, true);
      assert.equal(textOf(r), 'MCP error -32602: Input validation error: Invalid arguments for tool git_log: '
        + 'Invalid input: expected number, received string at max_count');
      r = await client.callTool({ name: 'git_add', arguments: { repo_path: '/data/repo', files: 'a.txt' } });
      assert.equal(r.isError, true);
    } finally {
      await client.close();
    }
  });

  test('the workspace dump shows what git wrote, and nothing else', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const files = readTarGzFiles(await sd.api.dump(sandbox.local_sandbox_id));
    const text = (rel) => files[rel]?.toString('utf8');
    // main is checked out again: its tree, without what was committed on dev.
    assert.equal(text('repo/app.py'), 'def main():\n    print("hello")\n');
    assert.equal(text('repo/README.md'), '# Seeded\n');
    assert.ok(!('repo/untracked.txt' in files) && !('repo/staged.txt' in files));
    assert.equal(text('repo/.git/HEAD'), 'ref: refs/heads/main\n');
    assert.equal(text('repo/.git/refs/heads/main'), '144cbcdc86576c3f70e62b1adf80eaa6d69b60d0\n');
    // git_commit wrote dev's new commit as GitPython serializes it: parent
    // main, the repository's identity, the message without a newline.
    const dev = text('repo/.git/refs/heads/dev');
    assert.match(dev, /^[0-9a-f]{40}\n$/);
    const object = zlib.inflateSync(files[`repo/.git/objects/${dev.slice(0, 2)}/${dev.slice(2, 40)}`]).toString('utf8');
    assert.match(object, new RegExp('^commit \\d+\\0tree [0-9a-f]{40}\\nparent 144cbcdc86576c3f70e62b1adf80eaa6d69b60d0\\n'
      + 'author Seed User <seed@example\\.com> \\d+ [+-]\\d{4}\\ncommitter Seed User <seed@example\\.com> \\d+ [+-]\\d{4}\\n'
      + '\\nCommit from MCP$'));
    assert.ok(!('HOOK_RAN' in files), 'the seeded post-checkout hook ran');
    assert.ok(!('x' in files), 'git_diff wrote --output');
    assert.equal(text('notes.txt'), 'not a repository\n');
  });

  test('release', async () => {
    await sd.api.release(sandbox.local_sandbox_id);
  });
});

describe('git server settings (--server-settings)', () => {
  let sd;
  let settingsDir;

  before(async () => {
    settingsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-git-settings-'));
    const file = path.join(settingsDir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({
      git: { author_name: 'Agent Smith', author_email: 'smith@sandbox.test', timeout_seconds: 30 },
    }));
    sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
  });
  after(async () => {
    await sd?.stop();
    fs.rmSync(settingsDir, { recursive: true, force: true });
  });

  test('commits get the configured identity when the repository has none', async (t) => {
    const { sandbox, url, unavailable } = await acquireSeeded(sd, { withIdentity: false });
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      let r = await client.callTool({ name: 'git_add', arguments: { repo_path: '/data/repo', files: ['.'] } });
      assert.equal(textOf(r), 'Files staged successfully');
      r = await client.callTool({ name: 'git_commit', arguments: { repo_path: '/data/repo', message: 'by the agent' } });
      assert.match(textOf(r), /^Changes committed successfully with hash [0-9a-f]{40}$/);
      const sha = textOf(r).slice(-40);
      r = await client.callTool({ name: 'git_log', arguments: { repo_path: '/data/repo', max_count: 1 } });
      assert.match(textOf(r), new RegExp(`^Commit history:\\nCommit: '${sha}'\\n`
        + 'Author: <git\\.Actor "Agent Smith <smith@sandbox\\.test>">\\nDate: .*\\nMessage: \'by the agent\'\\n$'));
      r = await client.callTool({ name: 'git_status', arguments: { repo_path: '/data/repo' } });
      assert.equal(textOf(r), 'Repository status:\nOn branch main\nnothing to commit, working tree clean');
    } finally {
      await client.close();
    }
    await sd.api.release(sandbox.local_sandbox_id);
  });
});
