// The arxiv MCP server of a sandbox, driven end to end with the official MCP
// TypeScript SDK against a real sandboxd: acquire ["arxiv"], seed, call the
// four tools, dump, re-seed a second sandbox from the dump.
//
// The paper store: deployments provide it read-only at a fixed jail path
// (default store_dir /opt/arxiv-store; see src/servers/arxiv/README.md).
// Until the jail mounts one, this suite seeds the store into the workspace
// (/data/paper-store) and points store_dir there with a --server-settings
// file, so the same code paths run (the store is read through openat2 below
// its root either way).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  REFERENCE_DIR, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';
import {
  ATTENTION_MARKDOWN, BERT_MARKDOWN, BERT_PDF, SEARCH_BERT, storeFiles,
} from './lib/arxiv_store.mjs';

const STORAGE = '/data/arxiv_local_storage';
const STARTED = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/;

function archive(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-arxiv-seed-'));
  try {
    writeTree(dir, files);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function settingsFile(dir, settings) {
  const file = path.join(dir, 'server-settings.json');
  fs.writeFileSync(file, JSON.stringify(settings));
  return file;
}

/** The text of a tool call; upstream answers every outcome as one text block without isError. */
async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r)}`);
  assert.equal(r.content.length, 1);
  assert.equal(r.content[0].type, 'text');
  return r.content[0].text;
}

/** JSON text with started_at / completed_at checked for shape and replaced by "<time>". */
function normalizedTimes(text) {
  const j = JSON.parse(text);
  for (const k of ['started_at', 'completed_at']) {
    if (typeof j[k] === 'string') {
      assert.match(j[k], STARTED, k);
      j[k] = '<time>';
    }
  }
  return j;
}

describe('arxiv server through sandboxd', () => {
  let sd;
  let tmp;
  let unavailable = null;
  let firstDump;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-arxiv-'));
    const file = settingsFile(tmp, { arxiv: { store_dir: '/data/paper-store' } });
    sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
  });
  after(async () => {
    await sd?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('search, download (markdown and PDF via poppler), list, read; the dump carries the storage', async (t) => {
    const sandbox = await sd.api.acquire(['arxiv']);
    const id = sandbox.local_sandbox_id;
    const url = sandbox.servers[0].mcp_server_url;
    assert.equal(new URL(url).pathname, '/arxiv/mcp/');
    await sd.api.uploadAndInitialize(id, archive(storeFiles('paper-store/')));
    unavailable = await mcpUnavailableReason(url);
    if (unavailable) return t.skip(unavailable);

    const client = await connectMcp(url);
    try {
      assert.deepEqual(client.getServerVersion(), { name: 'arxiv-mcp-server', version: '0.2.11' });
      const { tools } = await client.listTools();
      const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'arxiv.json'), 'utf8'));
      assert.deepEqual(tools.map((x) => x.name), ref.tools.map((x) => x.name));
      for (const [i, tool] of tools.entries()) {
        assert.equal(JSON.stringify(tool.inputSchema), JSON.stringify(ref.tools[i].inputSchema), tool.name);
      }

      assert.equal(await call(client, 'search_papers', { query: 'bidirectional transformers' }), SEARCH_BERT);
      assert.equal(await call(client, 'search_papers', { query: 'ti:bert', categories: ['cs.CL'] }), SEARCH_BERT);
      // The date range leaves the 2017 paper only: the same text as a search that finds just it.
      const before2018 = await call(client, 'search_papers', { query: 'model', date_to: '2018-01-01' });
      assert.deepEqual(JSON.parse(before2018).papers.map((p) => p.id), ['1706.03762v7']);
      assert.equal(before2018, await call(client, 'search_papers', { query: 'au:vaswani' }));
      assert.equal(await call(client, 'search_papers', { query: 'x', date_from: 'someday' }),
        'Error: Invalid date format - Unknown string format: someday');

      assert.deepEqual(JSON.parse(await call(client, 'download_paper', { paper_id: '1810.04805', check_status: true })),
        { status: 'unknown', message: 'No download or conversion in progress' });
      assert.deepEqual(normalizedTimes(await call(client, 'download_paper', { paper_id: '1810.04805' })),
        { status: 'converting', message: 'Paper downloaded, conversion started', started_at: '<time>' });
      assert.deepEqual(normalizedTimes(await call(client, 'download_paper', { paper_id: '1810.04805', check_status: true })),
        { status: 'success', started_at: '<time>', completed_at: '<time>', error: null, message: 'Paper conversion success' });
      assert.equal(await call(client, 'download_paper', { paper_id: '1810.04805' }),
        `{"status": "success", "message": "Paper already available", "resource_uri": "file://${STORAGE}/1810.04805.md"}`);
      assert.equal(await call(client, 'read_paper', { paper_id: '1810.04805' }),
        `{"status": "success", "paper_id": "1810.04805", "content": ${JSON.stringify(BERT_MARKDOWN)}}`);
      assert.equal(await call(client, 'download_paper', { paper_id: '1706.03762' }).then((x) => JSON.parse(x).status),
        'converting');
      assert.equal(await call(client, 'download_paper', { paper_id: '2101.00000' }),
        '{"status": "error", "message": "Paper 2101.00000 not found on arXiv"}');
      assert.equal(await call(client, 'read_paper', { paper_id: '2101.00000' }),
        '{"status": "error", "message": "Paper 2101.00000 not found in storage. ' +
          'You may need to download it first using download_paper."}');

      const list = JSON.parse(await call(client, 'list_papers'));
      assert.equal(list.total_papers, 2);
      assert.deepEqual(list.papers.map((p) => [p.title, p.pdf_url, p.links]), [
        ['Attention Is All You Need', 'http://arxiv.org/pdf/1706.03762v7',
          ['http://arxiv.org/abs/1706.03762v7', 'http://arxiv.org/pdf/1706.03762v7']],
        ['BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding',
          'http://arxiv.org/pdf/1810.04805v2', ['http://arxiv.org/abs/1810.04805v2', 'http://arxiv.org/pdf/1810.04805v2']],
      ]);
    } finally {
      await client.close();
    }

    firstDump = await sd.api.dump(id);
    const files = readTarGzFiles(firstDump);
    assert.equal(files['arxiv_local_storage/1810.04805.pdf'].toString('base64'), BERT_PDF.toString('base64'));
    assert.equal(files['arxiv_local_storage/1810.04805.md'].toString(), BERT_MARKDOWN);
    assert.equal(files['arxiv_local_storage/1706.03762.md'].toString(), ATTENTION_MARKDOWN);
    assert.deepEqual(Object.keys(files).filter((f) => f.startsWith('arxiv_local_storage/')).sort(), [
      'arxiv_local_storage/1706.03762.md', 'arxiv_local_storage/1810.04805.md', 'arxiv_local_storage/1810.04805.pdf',
    ]);
    await sd.api.release(id);
  });

  test('a sandbox seeded with a dump reads its papers at once', async (t) => {
    if (unavailable) return t.skip(unavailable);
    assert.ok(firstDump, 'the first test must have dumped its workspace');
    const sandbox = await sd.api.acquire(['arxiv']);
    const id = sandbox.local_sandbox_id;
    await sd.api.uploadAndInitialize(id, firstDump);
    const client = await connectMcp(sandbox.servers[0].mcp_server_url);
    try {
      assert.equal(await call(client, 'read_paper', { paper_id: '1706.03762' }),
        `{"status": "success", "paper_id": "1706.03762", "content": ${JSON.stringify(ATTENTION_MARKDOWN)}}`);
      assert.equal(await call(client, 'download_paper', { paper_id: '1706.03762', check_status: true }),
        `{"status": "success", "message": "Paper is ready", "resource_uri": "file://${STORAGE}/1706.03762.md"}`);
      assert.equal(JSON.parse(await call(client, 'list_papers')).total_papers, 2);
    } finally {
      await client.close();
    }
    await sd.api.release(id);
  });

  test('without a store: searches say so', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const sandbox = await sd.api.acquire(['arxiv']);
    const client = await connectMcp(sandbox.servers[0].mcp_server_url);
    try {
      assert.equal(await call(client, 'search_papers', { query: 'bert' }),
        "Error: paper store is not available: [Errno 2] No such file or directory: '/data/paper-store'");
    } finally {
      await client.close();
    }
    await sd.api.release(sandbox.local_sandbox_id);
  });
});

describe('arxiv server settings', () => {
  test('a bad setting stops sandboxd at startup with the reason', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-arxiv-bad-'));
    try {
      const file = settingsFile(tmp, { arxiv: { store_dir: 'relative/path' } });
      await assert.rejects(startSandboxd({ extraArgs: ['--server-settings', file] }),
        /arxiv: "store_dir" must be an absolute path/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('arxiv server prompts', () => {
  let sd;
  let client;
  let sandboxId;
  before(async () => {
    sd = await startSandboxd();
    const sandbox = await sd.api.acquire(['arxiv']);
    sandboxId = sandbox.local_sandbox_id;
    await mcpUnavailableReason(sandbox.servers[0].mcp_server_url);
    client = await connectMcp(sandbox.servers[0].mcp_server_url);
  });
  after(async () => {
    await client?.close().catch(() => {});
    if (sandboxId) await sd.api.release(sandboxId).catch(() => {});
    await sd?.stop();
  });

  test("capabilities are the Python SDK's for upstream's handlers", () => {
    assert.deepEqual(client.getServerCapabilities(),
      { experimental: {}, prompts: { listChanged: false }, tools: { listChanged: false } });
  });

  test('prompts/list: deep-paper-analysis with its one required argument', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map(({ description, arguments: args }) => ({
      description: typeof description, args: args.map((a) => ({ ...a, description: typeof a.description })),
    })), [{ description: 'string', args: [{ name: 'paper_id', description: 'string', required: true }] }]);
    assert.deepEqual(prompts.map((p) => p.name), ['deep-paper-analysis']);
  });

  test('prompts/get: one user message naming the paper, then the papers analysed before', async () => {
    const first = await client.getPrompt({ name: 'deep-paper-analysis', arguments: { paper_id: '1810.04805' } });
    assert.deepEqual(Object.keys(first), ['messages']);
    assert.equal(first.messages.length, 1);
    assert.equal(first.messages[0].role, 'user');
    assert.equal(first.messages[0].content.type, 'text');
    const text = first.messages[0].content.text;
    assert.ok(text.startsWith('Analyze paper 1810.04805.\n\n\nStructure the answer in five parts:\n1. Summary'), text);
    assert.match(text, /download_paper/);
    const second = await client.getPrompt({ name: 'deep-paper-analysis', arguments: { paper_id: '1706.03762' } });
    assert.ok(second.messages[0].content.text.startsWith(
      'Analyze paper 1706.03762.\nPapers analysed earlier in this session: 1810.04805. '), second.messages[0].content.text);
  });

  test("prompts/get errors: upstream's ValueError texts with code 0", async () => {
    const error = async (params) => {
      try {
        await client.getPrompt(params);
      } catch (err) {
        return { code: err.code, message: err.message };
      }
      return null;
    };
    assert.deepEqual(await error({ name: 'nope', arguments: { paper_id: 'x' } }),
      { code: 0, message: 'MCP error 0: Prompt not found: nope' });
    assert.deepEqual(await error({ name: 'deep-paper-analysis' }),
      { code: 0, message: 'MCP error 0: No arguments provided for prompt: deep-paper-analysis' });
    assert.deepEqual(await error({ name: 'deep-paper-analysis', arguments: { paper_id: '' } }),
      { code: 0, message: 'MCP error 0: Missing required argument: paper_id' });
  });
});
