// The baseline of the MCP benchmark: upstream @modelcontextprotocol/server-filesystem
// over stdio, driven sequentially
//   1. by the official SDK client (Client + StdioClientTransport), as a harness would, and
//   2. by a bare newline-delimited JSON-RPC client (what the server alone can do).
// Both use the tree of `sandboxd-bench mcp-tree`. Prints p50/p99/calls/s and
// the CPU per call of the server process and of this client, and appends
// "key value" lines to --out (the results file of bench/run.sh).
//
//   node bench/mcp/upstream_stdio.mjs --mcp-dir tests/mcp --root DIR [--calls 5000] [--warmup 500] [--out F]
//
// The SDK and the server come from tests/mcp/node_modules (`npm ci` there).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { measure as measureCalls, parseArgs, resultsFile } from './stats.mjs';

const args = parseArgs();
const mcpDir = path.resolve(args['mcp-dir'] ?? 'tests/mcp');
const root = fs.realpathSync(args.root);
const calls = Number(args.calls ?? 5000);
const warmup = Number(args.warmup ?? 500);
const out = args.out;

const modules = path.join(mcpDir, 'node_modules', '@modelcontextprotocol');
const entry = path.join(modules, 'server-filesystem', 'dist', 'index.js');
const sdk = (rel) => import(pathToFileURL(path.join(modules, 'sdk', 'dist', 'esm', rel)).href);
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const serverVersion = JSON.parse(fs.readFileSync(path.join(modules, 'server-filesystem', 'package.json'))).version;
const sdkVersion = JSON.parse(fs.readFileSync(path.join(modules, 'sdk', 'package.json'))).version;

const fileText = fs.readFileSync(path.join(root, 'file-4k.txt'), 'utf8');
const TOOLS = [
  { label: 'read', name: 'read_text_file', arguments: { path: path.join(root, 'file-4k.txt') },
    check: (text) => text === fileText },
  { label: 'list', name: 'list_directory', arguments: { path: path.join(root, 'dir-1000') },
    check: (text) => text.split('\n').length === 1000 },
];

const put = resultsFile(out);
const measure = (prefix, what, pid, call) => measureCalls({ put, prefix, what, pid, call, calls, warmup });

function textOf(result) {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result).slice(0, 300)}`);
  return result.content[0].text;
}

// ---- 1. the official SDK client
async function viaSdk() {
  const client = new Client({ name: 'sandboxd-bench', version: '1.0.0' }, { capabilities: {} });
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry, root], stderr: 'ignore' });
  await client.connect(transport);
  try {
    for (const t of TOOLS) {
      const call = () => client.callTool({ name: t.name, arguments: t.arguments });
      if (!t.check(textOf(await call()))) throw new Error(`${t.name}: unexpected result`);
      await measure(`upstream_${t.label}`, `upstream ${t.name} (SDK client)`, transport.pid, call);
    }
  } finally {
    await client.close();
  }
}

// ---- 2. a bare JSON-RPC client on the same server
async function viaRaw() {
  const child = spawn(process.execPath, [entry, root], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.trim()) continue;
      const msg = JSON.parse(line);
      const done = waiting.get(msg.id);
      if (done) { waiting.delete(msg.id); done(msg); }
    }
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let nextId = 1;
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, (msg) => (msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result)));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  try {
    await request('initialize', { protocolVersion: '2025-06-18', capabilities: {},
                                  clientInfo: { name: 'sandboxd-bench', version: '1' } });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    for (const t of TOOLS) {
      const call = () => request('tools/call', { name: t.name, arguments: t.arguments });
      if (!t.check(textOf(await call()))) throw new Error(`${t.name}: unexpected result`);
      await measure(`upstream_raw_${t.label}`, `upstream ${t.name} (bare JSON-RPC client)`, child.pid, call);
    }
  } finally {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

console.log(`upstream: @modelcontextprotocol/server-filesystem ${serverVersion}, @modelcontextprotocol/sdk ` +
            `${sdkVersion}, node ${process.version}; ${warmup} warm-up + ${calls} sequential calls per tool`);
await viaSdk();
await viaRaw();
