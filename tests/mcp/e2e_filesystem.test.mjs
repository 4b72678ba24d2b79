// The filesystem MCP server of a sandbox, driven end to end with the official
// MCP TypeScript SDK: acquire through the REST API, seed with a tar.gz,
// connect to the acquire response's mcp_server_url over Streamable HTTP, list
// and call every tool, release; plus the URL's token / server / release checks.
//
// Until the MCP gateway is in the build, sandboxd answers the MCP URL with a
// 503 "not available in this sandboxd build yet": the MCP parts are then
// skipped (SANDBOXD_MCP_REQUIRED=1 makes that a failure) and the REST parts
// and URL checks still run.

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
import { checkSessionLifecycle } from './lib/session_lifecycle.mjs';
import {
  FINAL_FILES, SEED_FILES, SEED_MTIME, checkToolList, runFilesystemTools,
} from './lib/filesystem_scenario.mjs';

const INIT_BODY = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw MCP POST (initialize) to `url`; returns {status, json}. */
async function rawInitialize(url) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(INIT_BODY),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, json };
}

function withQuery(url, changes) {
  const u = new URL(url);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) u.searchParams.delete(k);
    else u.searchParams.set(k, v);
  }
  return u.toString();
}

function withServer(url, server) {
  const u = new URL(url);
  u.pathname = u.pathname.replace(/^\/[^/]+\/mcp\/?$/, `/${server}/mcp/`);
  return u.toString();
}

/** SDK connect must fail with an HTTP error of `status` (StreamableHTTPError.code). */
async function assertConnectFails(url, status) {
  await assert.rejects(connectMcp(url), (err) => {
    assert.equal(err.code, status, `expected HTTP ${status}: ${err.message}`);
    return true;
  });
}

function seedArchive() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-seed-'));
  try {
    writeTree(dir, SEED_FILES, SEED_MTIME);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('filesystem server through sandboxd', () => {
  let sd;
  let sandbox; // the acquire response
  let url; // mcp_server_url of its filesystem server
  let unavailable = null; // why the MCP parts skip, or null

  before(async () => {
    sd = await startSandboxd();
  });
  after(async () => {
    await sd?.stop();
  });

  test('acquire ["filesystem"] and seed it through upload + initialize', async () => {
    sandbox = await sd.api.acquire(['filesystem']);
    const id = sandbox.local_sandbox_id;
    assert.equal(sandbox.servers.length, 1);
    assert.equal(sandbox.servers[0].server_name, 'filesystem');
    url = sandbox.servers[0].mcp_server_url;
    const u = new URL(url);
    assert.equal(`${u.protocol}//${u.host}`, sd.base);
    assert.equal(u.pathname, '/filesystem/mcp/');
    assert.equal(u.searchParams.get('local_sandbox_id'), id);
    assert.match(u.searchParams.get('token'), /^[A-Za-z0-9_-]{16,128}$/);

    await sd.api.uploadAndInitialize(id, seedArchive());
    const info = await sd.api.get(id);
    assert.equal(info.local_sandbox_id, id);
    unavailable = await mcpUnavailableReason(url);
  });

  test('tools/list: the 14 upstream tools with their exact schemas', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      const v = client.getServerVersion();
      assert.equal(typeof v?.name, 'string');
      const { tools, nextCursor } = await client.listTools();
      assert.equal(nextCursor, undefined);
      checkToolList(tools);
    } finally {
      await client.close();
    }
  });

  test('each tool once, exact results; the workspace dump shows the changes', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      await client.listTools(); // lets the SDK validate structuredContent against outputSchema
      await runFilesystemTools(client, '/data');
    } finally {
      await client.close();
    }
    const files = readTarGzFiles(await sd.api.dump(sandbox.local_sandbox_id));
    for (const [rel, content] of Object.entries(FINAL_FILES)) {
      assert.ok(rel in files, `dump lacks ${rel}: ${Object.keys(files).join(', ')}`);
      assert.equal(files[rel].toString('base64'), Buffer.from(content).toString('base64'), `dump: ${rel}`);
    }
    assert.deepEqual(Object.keys(files).sort(), Object.keys(FINAL_FILES).sort(), 'dump: file set');
  });

  test('sessions: Mcp-Session-Id issued, 400 without, 404 unknown or deleted', async (t) => {
    if (unavailable) return t.skip(unavailable);
    await checkSessionLifecycle(url);
  });

  test('wrong or missing token: 401', async () => {
    const token = new URL(url).searchParams.get('token');
    const bad = withQuery(url, { token: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') });
    let r = await rawInitialize(bad);
    assert.equal(r.status, 401);
    assert.deepEqual(r.json, { detail: 'Invalid or missing sandbox token' });
    r = await rawInitialize(withQuery(url, { token: null }));
    assert.equal(r.status, 401);
    await assertConnectFails(bad, 401);
  });

  test('a server the sandbox did not acquire: 404', async () => {
    const r = await rawInitialize(withServer(url, 'git'));
    assert.equal(r.status, 404);
    assert.match(r.json.detail, /has no 'git' server/);
    assert.equal((await rawInitialize(withServer(url, 'nonsense'))).status, 404);
    await assertConnectFails(withServer(url, 'git'), 404);
  });

  test('after release the same URL answers 404', async () => {
    const id = sandbox.local_sandbox_id;
    await sd.api.release(id);
    const r = await rawInitialize(url);
    assert.equal(r.status, 404);
    assert.deepEqual(r.json, { detail: `Local sandbox ${id} not found` });
    await assertConnectFails(url, 404);
  });
});

// The expectations of lib/filesystem_scenario.mjs, checked against upstream
// @modelcontextprotocol/server-filesystem itself (stdio, TZ=UTC) so that they
// stay what upstream does.
describe('upstream server-filesystem (reference for the expectations above)', () => {
  test('same tool list and same results', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-upstream-')));
    const client = new Client({ name: 'sandboxd-mcp-tests', version: '1.0.0' }, { capabilities: {} });
    try {
      writeTree(root, SEED_FILES, SEED_MTIME);
      const entry = path.join(MCP_DIR, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
      await client.connect(new StdioClientTransport({
        command: process.execPath,
        args: [entry, root],
        env: { ...process.env, TZ: 'UTC' },
        stderr: 'ignore',
      }));
      const { tools } = await client.listTools();
      checkToolList(tools);
      await runFilesystemTools(client, root);
      const onDisk = {};
      for (const rel of Object.keys(FINAL_FILES)) onDisk[rel] = fs.readFileSync(path.join(root, rel));
      for (const [rel, content] of Object.entries(FINAL_FILES)) {
        assert.equal(onDisk[rel].toString('base64'), Buffer.from(content).toString('base64'), rel);
      }
    } finally {
      await client.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
