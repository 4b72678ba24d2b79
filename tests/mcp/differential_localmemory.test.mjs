// Differential test of the localmemory MCP server: sandboxd's native server
// (memory file /data/repos/memory_mcp_server/memories-for-mcp.json, MCP
// Streamable HTTP through the gateway) against upstream
// @modelcontextprotocol/server-memory 2026.8.31 (stdio, MEMORY_FILE_PATH = a
// temporary file). Each case of lib/localmemory_corpus.mjs seeds both files
// with the same bytes (ours through initialize with a tar.gz, upstream's by
// writing the file), runs the same calls in the same order on both, requires
// every outcome (content, structuredContent, isError, or the thrown error)
// to be identical, and then requires the two memory files to be identical
// byte for byte (ours taken from the workspace dump), with no temporary file
// left beside either. Deliberate differences are asserted per side.
//
// SANDBOXD_DIFF_SELFTEST=1 runs upstream against a second upstream instead of
// sandboxd (checks the harness: everything but the deliberate cases must pass).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import {
  MCP_DIR, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';
import { stripDescriptions } from './lib/filesystem_scenario.mjs';
import { CASES, MEMORY_REL } from './lib/localmemory_corpus.mjs';

const SELFTEST = process.env.SANDBOXD_DIFF_SELFTEST === '1';
const UPSTREAM_ENTRY = path.join(MCP_DIR, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const MEMORY_DIR_REL = path.dirname(MEMORY_REL);
const MARKER = `${MEMORY_DIR_REL}/this-folder-used-for-memory-mcp-server.txt`;

/** Upstream server-memory over stdio with its memory file at `file`, connected. */
async function startUpstream(file) {
  const client = new Client({ name: 'sandboxd-mcp-differential', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: [UPSTREAM_ENTRY],
    env: { ...process.env, MEMORY_FILE_PATH: file },
    stderr: 'ignore',
  }));
  return client;
}

/** callTool; a thrown error (protocol error, client-side validation) becomes {thrown}. */
async function invoke(client, tool, args) {
  const params = { name: tool };
  if (args !== undefined) params.arguments = args;
  try {
    return { result: await client.callTool(params) };
  } catch (err) {
    return { thrown: `${err.constructor?.name}: ${err.message}`, code: err.code };
  }
}

function shorten(s, max = 1500) {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} chars)`;
}

function describeDifference(a, b) {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  if (x.length + y.length <= 3000) return `    ours:     ${x}\n    upstream: ${y}`;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const from = Math.max(0, i - 200);
  return `    first difference at JSON offset ${i} (lengths ${x.length} / ${y.length}):\n` +
    `    ours:     …${x.slice(from, i + 400)}…\n    upstream: …${y.slice(from, i + 400)}…`;
}

/** A local side: a directory holding the memory file, served by upstream (upstream, or ours in selftest). */
class LocalSide {
  constructor(dir) {
    this.dir = dir;
    this.file = path.join(dir, path.basename(MEMORY_REL));
    this.client = null;
  }

  async start() {
    fs.mkdirSync(this.dir, { recursive: true });
    this.client = await startUpstream(this.file);
  }

  async seed(content) {
    fs.rmSync(this.file, { force: true });
    if (content !== null) fs.writeFileSync(this.file, content);
  }

  /** The memory file (null when absent) and the other names beside it. */
  async result() {
    const names = fs.readdirSync(this.dir).filter((n) => n !== path.basename(MEMORY_REL));
    const file = fs.existsSync(this.file) ? fs.readFileSync(this.file, 'utf8') : null;
    return { file, others: names };
  }
}

/** Our side: one sandbox; seeds through initialize, results through dump. */
class SandboxSide {
  constructor(sd, tmp) {
    this.sd = sd;
    this.tmp = tmp;
    this.id = null;
    this.url = null;
    this.client = null;
    this.unavailable = null;
  }

  async start() {
    const sandbox = await this.sd.api.acquire(['localmemory']);
    this.id = sandbox.local_sandbox_id;
    this.url = sandbox.servers[0].mcp_server_url;
    this.unavailable = await mcpUnavailableReason(this.url);
  }

  async seed(content) {
    const dir = fs.mkdtempSync(path.join(this.tmp, 'seed-'));
    try {
      // The folder MCP-Atlas ships, with its marker file (an archive cannot be empty).
      const files = { [MARKER]: 'marker\n' };
      if (content !== null) files[MEMORY_REL] = content;
      writeTree(dir, files);
      await this.sd.api.uploadAndInitialize(this.id, makeTarGz(dir));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // A fresh MCP session per case: what the workspace holds now is the seed.
    await this.client?.close().catch(() => {});
    this.client = await connectMcp(this.url);
    await this.client.listTools(); // lets the SDK validate structuredContent against outputSchema
  }

  async result() {
    const files = readTarGzFiles(await this.sd.api.dump(this.id));
    const prefix = `${MEMORY_DIR_REL}/`;
    const others = Object.keys(files)
      .filter((rel) => rel.startsWith(prefix) && rel !== MEMORY_REL && rel !== MARKER)
      .map((rel) => rel.slice(prefix.length));
    const unexpected = Object.keys(files).filter((rel) => !rel.startsWith(prefix));
    assert.deepEqual(unexpected, [], 'nothing is written outside the memory folder');
    return { file: files[MEMORY_REL] ? files[MEMORY_REL].toString('utf8') : null, others };
  }
}

describe(`localmemory server: ${SELFTEST ? 'upstream vs upstream (selftest)' : 'sandboxd vs upstream'} (differential)`, () => {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-diff-memory-')));
  const upstream = new LocalSide(path.join(tmp, 'upstream'));
  let ours = null;
  let sd = null;
  let setupError = null;

  before(async () => {
    try {
      await upstream.start();
      await upstream.client.listTools();
      if (SELFTEST) {
        ours = new LocalSide(path.join(tmp, 'ours'));
        await ours.start();
        await ours.client.listTools();
      } else {
        sd = await startSandboxd();
        ours = new SandboxSide(sd, tmp);
        await ours.start();
      }
    } catch (err) {
      setupError = err;
    }
  });

  after(async () => {
    await ours?.client?.close().catch(() => {});
    await upstream.client?.close().catch(() => {});
    try {
      if (ours?.id) await sd.api.release(ours.id).catch(() => {});
      await sd?.stop();
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  function ready(t) {
    if (setupError) throw setupError;
    if (ours.unavailable) {
      t.skip(ours.unavailable);
      return false;
    }
    return true;
  }

  test('tools/list: same tools, schemas and annotations', async (t) => {
    if (!ready(t)) return;
    if (!SELFTEST) await ours.seed(null);
    const view = (tools) => tools.map((tool) => ({
      name: tool.name,
      inputSchema: stripDescriptions(tool.inputSchema),
      outputSchema: stripDescriptions(tool.outputSchema),
      annotations: tool.annotations && Object.fromEntries(Object.entries(tool.annotations).filter(([k]) => k !== 'title')),
    }));
    const [a, b] = await Promise.all([ours.client.listTools(), upstream.client.listTools()]);
    assert.deepEqual(view(a.tools), view(b.tools));
    assert.deepEqual(ours.client.getServerVersion(), upstream.client.getServerVersion());
  });

  for (const kase of CASES) {
    test(kase.name, async (t) => {
      if (!ready(t)) return;
      await Promise.all([ours.seed(kase.seed), upstream.seed(kase.seed)]);
      const failures = [];
      for (const [i, { tool, args, deliberate }] of kase.calls.entries()) {
        // One side at a time: the calls of a case depend on each other.
        const a = await invoke(ours.client, tool, args);
        const b = await invoke(upstream.client, tool, args);
        const label = `#${i + 1} ${tool} ${shorten(args === undefined ? '(no arguments)' : JSON.stringify(args), 300)}`;
        if (deliberate && !SELFTEST) {
          try {
            deliberate.check(a, b);
            t.diagnostic(`${label}: deliberate difference: ${deliberate.why}`);
          } catch (err) {
            failures.push(`${label} (deliberate difference: ${deliberate.why})\n    ${err.message}`);
          }
        } else if (!isDeepStrictEqual(a, b)) {
          failures.push(`${label}\n${describeDifference(a, b)}`);
        }
      }
      const [ra, rb] = [await ours.result(), await upstream.result()];
      assert.deepEqual(ra.others, [], 'ours left nothing beside the memory file');
      assert.deepEqual(rb.others, [], 'upstream left nothing beside the memory file');
      if (kase.file && !SELFTEST) {
        try {
          kase.file(ra.file, rb.file, kase.seed);
        } catch (err) {
          failures.push(`resulting files (deliberate difference)\n    ${err.message}`);
        }
      } else if (ra.file !== rb.file) {
        failures.push(`resulting files differ\n    ours:     ${JSON.stringify(shorten(String(ra.file), 600))}` +
          `\n    upstream: ${JSON.stringify(shorten(String(rb.file), 600))}`);
      }
      assert.ok(failures.length === 0, `${failures.join('\n')}\n(${failures.length} problems in ${kase.calls.length} calls)`);
    });
  }
});
