// The server variants through sandboxd (--server-settings {"<server>":
// {"variant": …}}): each variant's tools/list (names, inputSchema,
// outputSchema, annotations; descriptions ignored) equals its capture in
// shared/reference/tools/variants/ and, where npm has the pinned upstream
// (tests/mcp/package.json aliases), that upstream's own tools/list. One
// sandboxd carries filesystem@2025.7.1 and localmemory@2025.8.4, a second
// filesystem@klavis (a deployment has one variant per server).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { MCP_DIR, connectMcp, mcpUnavailableReason, startSandboxd } from './lib/sandboxd.mjs';
import { connectStdioUpstream, toolsView } from './lib/differential.mjs';

const VARIANTS_DIR = path.resolve(MCP_DIR, '..', '..', '..', 'shared', 'reference', 'tools', 'variants');
const capture = (name) => JSON.parse(fs.readFileSync(path.join(VARIANTS_DIR, `${name}.json`), 'utf8'));
const upstreamEntry = (alias) => path.join(MCP_DIR, 'node_modules', alias, 'dist', 'index.js');

/** A sandboxd with `settings`, one sandbox with `servers`, a client per server. */
function deployment(settings, servers) {
  const state = { sd: null, id: null, clients: {}, unavailable: null, dir: null };
  before(async () => {
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-variants-'));
    const file = path.join(state.dir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify(settings));
    state.sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
    const sandbox = await state.sd.api.acquire(servers);
    state.id = sandbox.local_sandbox_id;
    for (const [i, name] of servers.entries()) {
      const url = sandbox.servers[i].mcp_server_url;
      state.unavailable ??= await mcpUnavailableReason(url);
      if (!state.unavailable) state.clients[name] = await connectMcp(url);
    }
  });
  after(async () => {
    for (const c of Object.values(state.clients)) await c.close().catch(() => {});
    if (state.id) await state.sd.api.release(state.id).catch(() => {});
    await state.sd?.stop();
    if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
  });
  return state;
}

async function upstreamTools(alias, args, env = {}) {
  const client = await connectStdioUpstream({ args: [upstreamEntry(alias), ...args], env: { ...process.env, ...env } });
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close().catch(() => {});
  }
}

describe('filesystem@2025.7.1 and localmemory@2025.8.4 through sandboxd', () => {
  const state = deployment({ filesystem: { variant: '2025.7.1' }, localmemory: { variant: '2025.8.4' } },
    ['filesystem', 'localmemory']);
  let scratch;
  before(() => { scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-variants-up-')); });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test('filesystem@2025.7.1 tools/list equals the capture and upstream 2025.7.1', async (t) => {
    if (state.unavailable) return t.skip(state.unavailable);
    const ours = toolsView((await state.clients.filesystem.listTools()).tools);
    assert.deepEqual(ours, toolsView(capture('filesystem@2025.7.1').tools));
    assert.deepEqual(ours, toolsView(await upstreamTools('server-filesystem-2025.7.1', [scratch])));
    assert.deepEqual(state.clients.filesystem.getServerCapabilities(), { tools: {} });
  });

  test('localmemory@2025.8.4 tools/list equals the capture and upstream 2025.8.4 and 2025.4.25', async (t) => {
    if (state.unavailable) return t.skip(state.unavailable);
    const ours = toolsView((await state.clients.localmemory.listTools()).tools);
    assert.deepEqual(ours, toolsView(capture('localmemory@2025.8.4').tools));
    const env = { MEMORY_FILE_PATH: path.join(scratch, 'memory.json') };
    assert.deepEqual(ours, toolsView(await upstreamTools('server-memory-2025.8.4', [], env)));
    assert.deepEqual(ours, toolsView(await upstreamTools('server-memory-2025.4.25', [], env)));
    assert.deepEqual(state.clients.localmemory.getServerCapabilities(), { tools: {} });
  });
});

describe('filesystem@klavis through sandboxd', () => {
  const state = deployment({ filesystem: { variant: 'klavis' } }, ['filesystem']);

  test('tools/list equals the capture', async (t) => {
    if (state.unavailable) return t.skip(state.unavailable);
    const ours = toolsView((await state.clients.filesystem.listTools()).tools);
    assert.deepEqual(ours, toolsView(capture('filesystem@klavis').tools));
  });
});
