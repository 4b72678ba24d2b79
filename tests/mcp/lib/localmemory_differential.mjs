// The differential suite of the localmemory MCP server, run by
// differential_localmemory*.test.mjs for today's version and each variant: sandboxd's native server
// (memory file /data/repos/memory_mcp_server/memories-for-mcp.json, MCP
// Streamable HTTP through the gateway) against upstream
// @modelcontextprotocol/server-memory (2026.8.31, or the variant's pinned
// version through its npm alias; stdio, MEMORY_FILE_PATH = a
// temporary file). Each case of lib/localmemory_corpus.mjs seeds both files
// with the same bytes (ours through initialize with a tar.gz, upstream's by
// writing the file), runs the same calls in the same order on both, requires
// every outcome (content, structuredContent, isError, or the thrown error)
// to be identical, and then requires the two memory files to be identical
// byte for byte (ours taken from the workspace dump), with no temporary file
// left beside either. Deliberate differences are asserted per side; a
// variant states its own through `deliberateOf`/`fileOf`.
//
// SANDBOXD_DIFF_SELFTEST=1 runs upstream against a second upstream instead of
// sandboxd (checks the harness: everything but the deliberate cases must pass).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  MCP_DIR, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd, writeTree,
} from './sandboxd.mjs';
import {
  callToolOutcome as invoke, compareCall, connectStdioUpstream, ready as readyFor, shorten, teardown, toolsView,
} from './differential.mjs';
import { CASES, MEMORY_REL } from './localmemory_corpus.mjs';

const SELFTEST = process.env.SANDBOXD_DIFF_SELFTEST === '1';
const MEMORY_DIR_REL = path.dirname(MEMORY_REL);
const MARKER = `${MEMORY_DIR_REL}/this-folder-used-for-memory-mcp-server.txt`;

/** Upstream server-memory over stdio with its memory file at `file`, connected. */
function startUpstream(entry, file) {
  return connectStdioUpstream({ args: [entry], env: { ...process.env, MEMORY_FILE_PATH: file } });
}

/** A local side: a directory holding the memory file, served by upstream (upstream, or ours in selftest). */
class LocalSide {
  constructor(entry, dir) {
    this.entry = entry;
    this.dir = dir;
    this.file = path.join(dir, path.basename(MEMORY_REL));
    this.client = null;
  }

  async start() {
    fs.mkdirSync(this.dir, { recursive: true });
    this.client = await startUpstream(this.entry, this.file);
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

/**
 * Registers the suite: sandboxd's localmemory server (`variant`, null for
 * today's) against the npm package `upstreamPackage` (a name or alias in
 * tests/mcp/package.json). `deliberateOf(kase, index, call)` gives a call's
 * deliberate difference or null, `fileOf(kase)` a case's check of the two
 * resulting files or null; by default the corpus's own (today's version).
 * `resources`: whether the version has the graph resource. `sandboxd`: a
 * {get(extraArgs), put(sd)} that hands out one sandboxd to several suites
 * (each still takes its own sandbox); by default each suite starts its own.
 */
export function runLocalmemoryDifferential({
  variant = null, upstreamPackage = '@modelcontextprotocol/server-memory',
  deliberateOf = (kase, i, call) => call.deliberate, fileOf = (kase) => kase.file, resources = true,
  sandboxd = null,
} = {}) {
  const upstreamEntry = path.join(MCP_DIR, 'node_modules', ...upstreamPackage.split('/'), 'dist', 'index.js');
  const title = `localmemory server${variant ? `@${variant}` : ''}: ${SELFTEST ? 'upstream vs upstream (selftest)' : `sandboxd vs ${upstreamPackage}`} (differential)`;
  describe(title, () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-diff-memory-')));
    const upstream = new LocalSide(upstreamEntry, path.join(tmp, 'upstream'));
    let ours = null;
    let sd = null;
    let setupError = null;

    before(async () => {
      try {
        await upstream.start();
        await upstream.client.listTools();
        if (SELFTEST) {
          ours = new LocalSide(upstreamEntry, path.join(tmp, 'ours'));
          await ours.start();
          await ours.client.listTools();
        } else {
          let extraArgs = [];
          if (variant) {
            // One variant per deployment: the settings file names it.
            const settings = path.join(tmp, 'settings.json');
            fs.writeFileSync(settings, JSON.stringify({ localmemory: { variant } }));
            extraArgs = ['--server-settings', settings];
          }
          sd = sandboxd ? await sandboxd.get(extraArgs) : await startSandboxd({ extraArgs });
          ours = new SandboxSide(sd, tmp);
          await ours.start();
        }
      } catch (err) {
        setupError = err;
      }
    });

    after(async () => {
      if (!sandboxd || !sd) return teardown({ clients: [ours?.client, upstream.client], sd, sandboxId: ours?.id, tmp });
      // A shared sandboxd: give back this suite's sandbox, and the sandboxd to its owner.
      await ours?.client?.close().catch(() => {});
      if (ours?.id) await sd.api.release(ours.id).catch(() => {});
      await sandboxd.put(sd);
      return teardown({ clients: [upstream.client], sd: null, sandboxId: null, tmp });
    });

    const ready = (t) => readyFor(t, setupError, ours?.unavailable);

    test('tools/list: same tools, schemas and annotations', async (t) => {
      if (!ready(t)) return;
      if (!SELFTEST) await ours.seed(null);
      const [a, b] = await Promise.all([ours.client.listTools(), upstream.client.listTools()]);
      assert.deepEqual(toolsView(a.tools), toolsView(b.tools));
      assert.deepEqual(ours.client.getServerVersion(), upstream.client.getServerVersion());
      // The protocol version each agreed on with the same client (2024-11-05 for SDK 1.0.1's servers).
      assert.equal(ours.client.transport.protocolVersion, upstream.client.transport.protocolVersion);
    });

    if (resources) test('resources: capabilities, list, templates, read and subscriptions answer as upstream', async (t) => {
      if (!ready(t)) return;
      const seed = '{"type":"entity","name":"Ada","entityType":"person","observations":["wrote notes"]}\n' +
        '{"type":"relation","from":"Ada","to":"Ada","relationType":"knows"}\n';
      await Promise.all([ours.seed(seed), upstream.seed(seed)]);
      const both = (fn) => Promise.all([fn(ours.client), fn(upstream.client)]);
      const outcome = (fn) => async (c) => {
        try {
          return { ok: await fn(c) };
        } catch (err) {
          return { code: err.code, message: err.message };
        }
      };
      let [a, b] = [ours.client.getServerCapabilities(), upstream.client.getServerCapabilities()];
      assert.deepEqual(a, b);
      // The entry is upstream's but for the description, which is our own wording.
      [a, b] = await both((c) => c.listResources());
      const noDescription = (r) => r.resources.map(({ description, ...rest }) => rest);
      assert.deepEqual(noDescription(a), noDescription(b));
      assert.equal(typeof a.resources[0].description, 'string');
      assert.deepEqual(...(await both((c) => c.listResourceTemplates())));
      // The same text after the same change, byte for byte.
      const change = { entities: [{ name: 'Bob', entityType: 'person', observations: ['ünïcode ✓'] }] };
      await both((c) => c.callTool({ name: 'create_entities', arguments: change }));
      [a, b] = await both((c) => c.readResource({ uri: 'memory://knowledge-graph' }));
      assert.deepEqual(a, b);
      assert.match(a.contents[0].text, /"name": "Bob"/);
      for (const uri of ['memory://nope', 'memory://knowledge-graph/extra']) {
        [a, b] = await both(outcome((c) => c.readResource({ uri })));
        assert.deepEqual(a, b, uri);
        assert.equal(a.code, -32602);
      }
      for (const call of [(c) => c.subscribeResource({ uri: 'memory://knowledge-graph' }),
        (c) => c.subscribeResource({ uri: 'memory://other' }),
        (c) => c.unsubscribeResource({ uri: 'memory://knowledge-graph' })]) {
        assert.deepEqual(...(await both(outcome(call))));
      }
    });

    for (const kase of CASES) {
      test(kase.name, async (t) => {
        if (!ready(t)) return;
        await Promise.all([ours.seed(kase.seed), upstream.seed(kase.seed)]);
        const failures = [];
        for (const [i, call] of kase.calls.entries()) {
          const { tool, args } = call;
          const deliberate = deliberateOf(kase, i, call);
          // One side at a time: the calls of a case depend on each other.
          const a = await invoke(ours.client, tool, args);
          const b = await invoke(upstream.client, tool, args);
          const label = `#${i + 1} ${tool} ${shorten(args === undefined ? '(no arguments)' : JSON.stringify(args), 300)}`;
          compareCall(t, { label, a, b, deliberate, selftest: SELFTEST, failures });
        }
        const [ra, rb] = [await ours.result(), await upstream.result()];
        assert.deepEqual(ra.others, [], 'ours left nothing beside the memory file');
        assert.deepEqual(rb.others, [], 'upstream left nothing beside the memory file');
        const fileCheck = fileOf(kase);
        if (fileCheck && !SELFTEST) {
          try {
            fileCheck(ra.file, rb.file, kase.seed);
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
}
