// The baseline of the `servers` benchmark: for each server of servers.json
// whose upstream runs here (installed in tests/mcp/node_modules), that
// upstream over stdio with the official SDK client (Client +
// StdioClientTransport), sequential: the same call with the same arguments
// on the host copy of the tree ({root}), first reply checked as servers-run
// checks ours, then warm-up and measured calls. Servers without an upstream
// here are named and skipped (the report prints "-" for them).
//
//   node bench/mcp/upstream_servers.mjs --mcp-dir tests/mcp --table bench/mcp/servers.json --root TREE
//        [--calls 2000] [--warmup 200] [--only "names"] [--out F]
//
// Records servers_up_<server>_{n,p50_ms,…,cps,server_us,client_us} and
// servers_up_<server>_state (1 measured, -1 failed) in --out.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { measure, parseArgs, resultsFile } from './stats.mjs';

const args = parseArgs();
const mcpDir = path.resolve(args['mcp-dir'] ?? 'tests/mcp');
const root = fs.realpathSync(args.root);
const calls = Number(args.calls ?? 2000);
const warmup = Number(args.warmup ?? 200);
const only = (args.only ?? '').split(/\s+/).filter(Boolean);
const put = resultsFile(args.out);
const table = JSON.parse(fs.readFileSync(args.table, 'utf8')).servers;

const modules = path.join(mcpDir, 'node_modules');
const sdk = (rel) => import(pathToFileURL(path.join(modules, '@modelcontextprotocol', 'sdk', 'dist', 'esm', rel)).href);
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');

// How each upstream is started: its npm package, the script its "bin" names,
// and what it needs around it. `scratch` is a fresh directory per server.
const UPSTREAMS = {
  filesystem: { pkg: '@modelcontextprotocol/server-filesystem', entry: 'dist/index.js', args: () => [root] },
  // The graph file is where ours reads it by default (MCP-Atlas's path).
  localmemory: {
    pkg: '@modelcontextprotocol/server-memory', entry: 'dist/index.js',
    env: () => ({ MEMORY_FILE_PATH: path.join(root, 'repos/memory_mcp_server/memories-for-mcp.json') }),
  },
  // Code files go to TMPDIR; the command runs in the working directory.
  'code-runner': {
    pkg: 'mcp-server-code-runner', entry: 'dist/cli.js', cwd: () => root,
    env: (scratch) => ({ TMPDIR: scratch, LANG: 'C.UTF-8' }),
  },
  // It keeps its config (and a log of tool calls) in $HOME; a fresh HOME with
  // its default config, telemetry off, so nothing leaves the host and the
  // user's own config plays no part.
  'desktop-commander': {
    pkg: '@wonderwhy-er/desktop-commander', entry: 'dist/index.js',
    env: (scratch) => ({ HOME: scratch }),
    setup: (scratch) => {
      fs.mkdirSync(path.join(scratch, '.claude-server-commander'));
      fs.writeFileSync(path.join(scratch, '.claude-server-commander', 'config.json'), JSON.stringify({
        blockedCommands: [], defaultShell: '/bin/sh', allowedDirectories: [], telemetryEnabled: false,
        fileWriteLineLimit: 50, fileReadLineLimit: 1000,
      }));
    },
  },
};

// Servers whose upstream is Python (not installed here) get a baseline of
// the same work in Debian's python3 instead: a process that answers one
// request per stdin line, so the figure is the work, not a start-up.
const PYTHON_BASELINES = {
  // pdf-tools-mcp reads pages with PyPDF2; Debian ships its successor pypdf.
  'pdf-tools': {
    what: 'Debian python3-pypdf',
    version: 'import pypdf; print(pypdf.__version__)',
    script: [
      'import sys, pypdf',
      'for line in sys.stdin:',
      '    path, first, last = line.rstrip("\\n").split("\\t")',
      '    reader = pypdf.PdfReader(path)',
      '    pages = [f"=== Page {i + 1} ===\\n" + reader.pages[i].extract_text() for i in range(int(first) - 1, int(last))]',
      '    text = "\\n\\n".join(pages)',
      '    sys.stdout.write(str(len(text.encode())) + "\\n")',
      '    sys.stdout.flush()',
    ].join('\n'),
    request: (args) => `${args.pdf_file_path}\t${args.start_page}\t${args.end_page}\n`,
  },
  // excel-mcp-server reads with openpyxl: load the workbook, walk the range
  // cell by cell into {address, value, row, column} records and json.dumps
  // them with indent 2, as its read_data_from_excel does.
  excel: {
    what: 'Debian python3-openpyxl',
    version: 'import openpyxl; print(openpyxl.__version__)',
    script: [
      'import sys, json, openpyxl',
      'from openpyxl.utils import get_column_letter, range_boundaries',
      'for line in sys.stdin:',
      '    path, sheet, first, last = line.rstrip("\\n").split("\\t")',
      '    wb = openpyxl.load_workbook(path, read_only=False)',
      '    ws = wb[sheet]',
      '    c1, r1, c2, r2 = range_boundaries(f"{first}:{last}")',
      '    cells = [{"address": f"{get_column_letter(c)}{r}", "value": ws.cell(row=r, column=c).value, "row": r, "column": c}',
      '             for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]',
      '    text = json.dumps({"range": f"{first}:{last}", "sheet_name": sheet, "cells": cells}, indent=2, default=str)',
      '    wb.close()',
      '    sys.stdout.write(str(len(text.encode())) + "\\n")',
      '    sys.stdout.flush()',
    ].join('\n'),
    request: (args) => `${args.filepath}\t${args.sheet_name}\t${args.start_cell}\t${args.end_cell}\n`,
  },
};

async function runPythonBaseline(entry, base) {
  const version = (await new Promise((resolve, reject) => {
    const p = spawn('/usr/bin/python3', ['-c', base.version], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`python3: exit ${code}`))));
  }));
  const child = spawn('/usr/bin/python3', ['-c', base.script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffered = '';
  const waiting = [];
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  const request = base.request(withRoot(entry.arguments));
  const call = () => new Promise((resolve) => {
    waiting.push(resolve);
    child.stdin.write(request);
  });
  try {
    const first = Number(await call());
    if (!(first > 0)) throw new Error('the baseline returned no text');
    await measure({ put, prefix: `servers_up_${entry.server}`, what: `baseline ${base.what} ${version}`,
                    pid: child.pid, call, calls: Math.min(calls, entry.max_calls ?? calls),
                    warmup: Math.min(warmup, entry.max_warmup ?? warmup) });
  } finally {
    child.stdin.end();
    child.kill();
  }
}

function withRoot(v) {
  if (typeof v === 'string') return v.replaceAll('{root}', root);
  if (Array.isArray(v)) return v.map(withRoot);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withRoot(x)]));
  return v;
}

function check(expect, result) {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result).slice(0, 300)}`);
  const text = (result.content ?? []).filter((b) => typeof b.text === 'string').map((b) => b.text).join('\n');
  if (expect.contains !== undefined && !text.includes(expect.contains))
    throw new Error(`the first reply lacks ${JSON.stringify(expect.contains)}: ${text.slice(0, 300)}`);
  if (expect.equals_file !== undefined && text !== fs.readFileSync(path.join(root, expect.equals_file), 'utf8'))
    throw new Error(`the first reply is not the content of ${expect.equals_file}`);
}

async function runOne(entry, up) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-bench-up-'));
  const pkgDir = path.join(modules, up.pkg);
  const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  up.setup?.(scratch);
  const client = new Client({ name: 'sandboxd-bench', version: '1.0.0' }, { capabilities: {} });
  // Some upstreams log on stdout between the JSON-RPC lines; the SDK reports
  // each such line here and goes on.
  client.onerror = () => {};
  const transport = new StdioClientTransport({
    command: process.execPath, args: [path.join(pkgDir, up.entry), ...(up.args?.() ?? [])],
    cwd: up.cwd?.() ?? scratch, env: up.env?.(scratch) ?? {}, stderr: 'ignore',
  });
  try {
    await client.connect(transport);
    const params = { name: entry.tool, arguments: withRoot(entry.arguments) };
    const call = () => client.callTool(params);
    check(withRoot(entry.expect ?? {}), await call());
    await measure({ put, prefix: `servers_up_${entry.server}`, what: `upstream ${up.pkg} ${version} ${entry.tool}`,
                    pid: transport.pid, call, calls: Math.min(calls, entry.max_calls ?? calls),
                    warmup: Math.min(warmup, entry.max_warmup ?? warmup) });
  } finally {
    await client.close().catch(() => {});
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const sdkVersion = JSON.parse(fs.readFileSync(path.join(modules, '@modelcontextprotocol', 'sdk', 'package.json'))).version;
console.log(`upstreams over stdio: @modelcontextprotocol/sdk ${sdkVersion} client, node ${process.version}; ` +
            `${warmup} warm-up + ${calls} sequential calls per server`);
let failed = 0;
for (const entry of table) {
  if (only.length && !only.includes(entry.server)) continue;
  const up = UPSTREAMS[entry.server];
  if (!up && PYTHON_BASELINES[entry.server]) {
    try {
      await runPythonBaseline(entry, PYTHON_BASELINES[entry.server]);
      put(`servers_up_${entry.server}_state`, 1);
    } catch (e) {
      console.log(`${entry.server}: baseline FAILED: ${e.message}`);
      put(`servers_up_${entry.server}_state`, -1);
      failed++;
    }
    continue;
  }
  if (!up) {
    console.log(`${entry.server}: no upstream runs here`);
    continue;
  }
  if (!fs.existsSync(path.join(modules, up.pkg, up.entry))) {
    console.log(`${entry.server}: ${up.pkg} is not installed in ${modules} (npm ci there)`);
    put(`servers_up_${entry.server}_state`, -1);
    failed++;
    continue;
  }
  try {
    await runOne(entry, up);
    put(`servers_up_${entry.server}_state`, 1);
  } catch (e) {
    console.log(`${entry.server}: upstream FAILED: ${e.message}`);
    put(`servers_up_${entry.server}_state`, -1);
    failed++;
  }
}
process.exitCode = failed ? 1 : 0;
