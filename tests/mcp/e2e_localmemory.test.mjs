// The localmemory MCP server of a sandbox, end to end with the official MCP
// TypeScript SDK: acquire, seed the memory file with initialize from a
// tar.gz, tools/list against the reference, every tool with exact results,
// the memory file in the workspace dump, reset back to the seed, a second
// initialize, parallel clients losing no update, a link out of /data
// refused, deployment settings (another file, a size bound, a typo refused
// at startup), release. The scenario's expectations are checked against
// upstream server-memory itself at the end.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import {
  MCP_DIR, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';
import {
  FINAL_FILE, MEMORY_REL, OTHER_GRAPH, OTHER_READ, SEED_FILE, SEED_READ, checkToolList, jsonl, runLocalmemoryTools,
} from './lib/localmemory_scenario.mjs';

/** A tar.gz of {relative path: content}, plus symlinks {relative path: target}. */
function archive(files, links = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-memory-seed-'));
  try {
    writeTree(dir, files);
    for (const [rel, target] of Object.entries(links)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.symlinkSync(target, path.join(dir, rel));
    }
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const text = (result) => result.content?.[0]?.text;

/**
 * Runs `program` as main.py inside the sandbox through the execution API
 * (upload, execute, poll the status); resolves to the final status.
 */
async function runInSandbox(sd, id, name, program) {
  const api = sd.api;
  const u = await api.request('POST', `/local-sandbox/${id}/execution-upload-url`, { body: { execution_name: name } });
  assert.equal(u.status, 200, u.text);
  const target = new URL(u.json.upload_url);
  const base = new URL(sd.base);
  target.protocol = base.protocol;
  target.host = base.host;
  const put = await fetch(target, { method: 'PUT', headers: { 'Content-Type': 'application/gzip' }, body: archive({ 'main.py': program }) });
  assert.equal(put.status, 200, await put.text());
  const ex = await api.request('POST', `/local-sandbox/${id}/execute`, { body: { execution_name: name } });
  assert.equal(ex.status, 200, ex.text);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const st = await api.request('GET', `/local-sandbox/${id}/execution-status?execution_name=${encodeURIComponent(name)}`);
    assert.equal(st.status, 200, st.text);
    if (st.json.status === 'completed' || st.json.status === 'failed') return st.json.status;
    assert.ok(Date.now() < deadline, `execution ${name} still ${st.json.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function withClient(url, fn) {
  const client = await connectMcp(url);
  try {
    await client.listTools(); // lets the SDK validate structuredContent against outputSchema
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('localmemory server through sandboxd (default settings)', () => {
  let sd;
  let id;
  let url;
  let unavailable = null;

  before(async () => {
    sd = await startSandboxd();
  });
  after(async () => {
    if (id) await sd?.api.release(id).catch(() => {});
    await sd?.stop();
  });

  const skip = (t) => {
    if (unavailable) t.skip(unavailable);
    return Boolean(unavailable);
  };

  test('acquire ["localmemory"] and seed its memory file through upload + initialize', async () => {
    const sandbox = await sd.api.acquire(['localmemory']);
    id = sandbox.local_sandbox_id;
    assert.equal(sandbox.servers.length, 1);
    assert.equal(sandbox.servers[0].server_name, 'localmemory');
    url = sandbox.servers[0].mcp_server_url;
    assert.equal(new URL(url).pathname, '/localmemory/mcp/');
    await sd.api.uploadAndInitialize(id, archive({ [MEMORY_REL]: SEED_FILE, 'notes.txt': 'other file\n' }));
    unavailable = await mcpUnavailableReason(url);
  });

  test('tools/list: the 9 upstream tools with their exact schemas; serverInfo as upstream', async (t) => {
    if (skip(t)) return;
    await withClient(url, async (client) => {
      assert.deepEqual(client.getServerVersion(), { name: 'memory-server', version: '0.6.3' });
      const { tools, nextCursor } = await client.listTools();
      assert.equal(nextCursor, undefined);
      checkToolList(tools);
    });
  });

  test('every tool once on the seeded graph, exact results; the dump carries the file', async (t) => {
    if (skip(t)) return;
    await withClient(url, runLocalmemoryTools);
    const files = readTarGzFiles(await sd.api.dump(id));
    assert.deepEqual(Object.keys(files).sort(), ['notes.txt', MEMORY_REL], 'no temporary file left behind');
    assert.equal(files[MEMORY_REL].toString('utf8'), FINAL_FILE);
  });

  test('reset: the graph is the seed again, byte for byte', async (t) => {
    if (skip(t)) return;
    const r = await sd.api.request('POST', `/local-sandbox/${id}/reset`);
    assert.equal(r.status, 200, r.text);
    await withClient(url, async (client) => {
      assert.deepEqual(await client.callTool({ name: 'read_graph', arguments: {} }), SEED_READ);
    });
    const files = readTarGzFiles(await sd.api.dump(id));
    assert.equal(files[MEMORY_REL].toString('utf8'), SEED_FILE);
  });

  test('a second initialize replaces the graph; one without the file starts empty', async (t) => {
    if (skip(t)) return;
    await sd.api.uploadAndInitialize(id, archive({ [MEMORY_REL]: jsonl(OTHER_GRAPH) }));
    await withClient(url, async (client) => {
      assert.deepEqual(await client.callTool({ name: 'read_graph', arguments: {} }), OTHER_READ);
    });
    await sd.api.uploadAndInitialize(id, archive({ 'empty.txt': '' }));
    await withClient(url, async (client) => {
      assert.equal(text(await client.callTool({ name: 'read_graph', arguments: {} })), '{\n  "entities": [],\n  "relations": []\n}');
      // The first mutation creates the file, and its folder, inside /data.
      await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'n', entityType: 't', observations: [] }] } });
    });
    const files = readTarGzFiles(await sd.api.dump(id));
    assert.equal(files[MEMORY_REL].toString('utf8'), '{"type":"entity","name":"n","entityType":"t","observations":[]}');
  });

  test('parallel clients: no update is lost', async (t) => {
    if (skip(t)) return;
    await sd.api.uploadAndInitialize(id, archive({ 'empty.txt': '' }));
    const clients = await Promise.all(Array.from({ length: 4 }, () => connectMcp(url)));
    try {
      await Promise.all(clients.map((c, k) => Promise.all(Array.from({ length: 10 }, (_, i) => Promise.all([
        c.callTool({ name: 'create_entities', arguments: { entities: [{ name: `c${k}-${i}`, entityType: 't', observations: [] }] } }),
        c.callTool({ name: 'create_relations', arguments: { relations: [{ from: `c${k}-${i}`, to: 'hub', relationType: 'r' }] } }),
      ])))));
      const graph = (await clients[0].callTool({ name: 'read_graph', arguments: {} })).structuredContent;
      assert.equal(graph.entities.length, 40);
      assert.equal(graph.relations.length, 40);
      assert.deepEqual(graph.entities.map((x) => x.name).sort(),
        Array.from({ length: 40 }, (_, n) => `c${Math.floor(n / 10)}-${n % 10}`).sort());
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  test('a memory folder linked out of /data is refused, nothing written outside', async (t) => {
    if (skip(t)) return;
    await sd.api.uploadAndInitialize(id, archive({ 'keep.txt': 'x\n' }));
    // Archives may not carry such a link; a program in the sandbox plants it.
    assert.equal(await runInSandbox(sd, id, 'plant-link',
      "import os\nos.makedirs('/data/repos', exist_ok=True)\nos.symlink('/tmp', '/data/repos/memory_mcp_server')\n"),
    'completed');
    const message = 'The memory file path /data/repos/memory_mcp_server/memories-for-mcp.json leads outside the ' +
      'workspace /data (through a symbolic link); refusing to follow it. Replace that link with a directory or file ' +
      'inside the workspace.';
    await withClient(url, async (client) => {
      const read = await client.callTool({ name: 'read_graph', arguments: {} });
      assert.deepEqual(read, { content: [{ type: 'text', text: message }], isError: true });
      const write = await client.callTool({ name: 'delete_entities', arguments: { entityNames: [] } });
      assert.deepEqual(write, { content: [{ type: 'text', text: message }], isError: true });
    });
    // Nothing appeared where the link points.
    assert.equal(await runInSandbox(sd, id, 'check-outside',
      "import os, sys\nsys.exit(1 if any(n.startswith('memories-for-mcp.json') for n in os.listdir('/tmp')) else 0)\n"),
    'completed');
    const files = readTarGzFiles(await sd.api.dump(id));
    assert.deepEqual(Object.keys(files), ['keep.txt']);
  });
});

describe('localmemory server settings (--server-settings)', () => {
  test('another memory file and a size bound', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-memory-settings-'));
    const settings = path.join(dir, 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({ localmemory: { memory_file_path: '/data/memory/memory.json', max_file_bytes: 200 } }));
    let sd;
    let id;
    try {
      sd = await startSandboxd({ extraArgs: ['--server-settings', settings] });
      const sandbox = await sd.api.acquire(['localmemory']);
      id = sandbox.local_sandbox_id;
      const url = sandbox.servers[0].mcp_server_url;
      const why = await mcpUnavailableReason(url);
      if (why) return t.skip(why);
      await withClient(url, async (client) => {
        const ok = await client.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'a', entityType: 'T', observations: [] }] } });
        assert.notEqual(ok.isError, true);
        const big = await client.callTool({ name: 'add_observations', arguments: { observations: [{ entityName: 'a', contents: ['x'.repeat(300)] }] } });
        assert.deepEqual(big, {
          content: [{ type: 'text', text: 'The memory file /data/memory/memory.json would grow to 365 bytes, more than the 200 bytes this server allows; nothing was changed.' }],
          isError: true,
        });
      });
      const files = readTarGzFiles(await sd.api.dump(id));
      assert.deepEqual(Object.keys(files), ['memory/memory.json']);
      assert.equal(files['memory/memory.json'].toString('utf8'), '{"type":"entity","name":"a","entityType":"T","observations":[]}');
    } finally {
      if (id) await sd.api.release(id).catch(() => {});
      await sd?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a typo in the settings stops sandboxd at startup with a clear message', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-memory-settings-'));
    const settings = path.join(dir, 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({ localmemory: { memory_file: '/data/m.json' } }));
    try {
      await assert.rejects(startSandboxd({ extraArgs: ['--server-settings', settings] }),
        /localmemory: unknown setting "memory_file" \(known: memory_file_path, max_file_bytes\)/);
      fs.writeFileSync(settings, JSON.stringify({ localmemory: { memory_file_path: '/etc/passwd' } }));
      await assert.rejects(startSandboxd({ extraArgs: ['--server-settings', settings] }),
        /memory_file_path "\/etc\/passwd" must lie inside the workspace \/data/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The scenario's expectations, checked against upstream server-memory
// itself (stdio, MEMORY_FILE_PATH = a temp file holding the same seed).
describe('upstream server-memory (reference for the expectations above)', () => {
  test('same tool list, same results, same file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-memory-upstream-'));
    const file = path.join(dir, 'memories-for-mcp.json');
    fs.writeFileSync(file, SEED_FILE);
    const client = new Client({ name: 'sandboxd-mcp-tests', version: '1.0.0' }, { capabilities: {} });
    try {
      const entry = path.join(MCP_DIR, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
      await client.connect(new StdioClientTransport({
        command: process.execPath, args: [entry], env: { ...process.env, MEMORY_FILE_PATH: file }, stderr: 'ignore',
      }));
      assert.deepEqual(client.getServerVersion(), { name: 'memory-server', version: '0.6.3' });
      checkToolList((await client.listTools()).tools);
      await runLocalmemoryTools(client);
      assert.equal(fs.readFileSync(file, 'utf8'), FINAL_FILE);
      assert.deepEqual(fs.readdirSync(dir), ['memories-for-mcp.json']);
    } finally {
      await client.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
