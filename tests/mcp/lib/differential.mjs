// Pieces every differential suite (differential_*.test.mjs) needs the same
// way: starting an upstream server over stdio, moving trees in and out as
// tar.gz, calling a tool without letting a thrown error end the case, the
// shared setup/teardown, and reporting where two results part. One copy, so
// the suites compare and report alike.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { stripDescriptions } from './filesystem_scenario.mjs';

/**
 * An SDK client connected to an upstream server run by this Node over stdio
 * (`args` after the node binary; its stderr ignored). `onerror` replaces the
 * client's error hook before connecting (for upstreams that log on stdout).
 */
export async function connectStdioUpstream({ args, env, cwd, onerror }) {
  const client = new Client({ name: 'sandboxd-mcp-differential', version: '1.0.0' }, { capabilities: {} });
  if (onerror) client.onerror = onerror;
  const transport = new StdioClientTransport({ command: process.execPath, args, env, cwd, stderr: 'ignore' });
  // The version initialize agreed on, kept where the HTTP transport keeps it
  // (client.transport.protocolVersion), so the suites can compare it.
  transport.setProtocolVersion = (version) => { transport.protocolVersion = version; };
  await client.connect(transport);
  return client;
}

/** Extracts a tar.gz into `dir` (as root: modes and mtimes kept). */
export function extractTarGz(tarGz, dir) {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', '-', '-C', dir, '--no-same-owner'], { input: tarGz, maxBuffer: 256 * 1024 * 1024 });
}

/** {relative path: {type, mode, data?, target?}} of everything below `dir`. */
export function snapshotTree(dir) {
  const out = {};
  const walk = (rel) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const p = path.join(dir, r);
      const st = fs.lstatSync(p);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isDirectory()) {
        out[r] = { type: 'dir', mode };
        walk(r);
      } else if (st.isFile()) {
        out[r] = { type: 'file', mode, data: fs.readFileSync(p) };
      } else if (st.isSymbolicLink()) {
        out[r] = { type: 'symlink', mode, target: fs.readlinkSync(p) };
      } else {
        out[r] = { type: 'other', mode };
      }
    }
  };
  walk('');
  return out;
}

/**
 * callTool with `args` as given (undefined: no arguments); a thrown error
 * (protocol error, client-side validation) becomes {thrown, code}, so both
 * sides' outcomes compare the same way.
 */
export async function callToolOutcome(client, tool, args) {
  const params = { name: tool };
  if (args !== undefined) params.arguments = args;
  try {
    return { result: await client.callTool(params) };
  } catch (err) {
    return { thrown: `${err.constructor?.name}: ${err.message}`, code: err.code };
  }
}

/**
 * What tools/list must share with upstream: names, schemas and annotations;
 * descriptions and titles are the project's own wording (see
 * shared/reference/tools/README.md).
 */
export function toolsView(tools) {
  return tools.map((tool) => ({
    name: tool.name,
    inputSchema: stripDescriptions(tool.inputSchema),
    outputSchema: stripDescriptions(tool.outputSchema),
    annotations: tool.annotations && Object.fromEntries(Object.entries(tool.annotations).filter(([k]) => k !== 'title')),
  }));
}

/**
 * A case's preconditions: setup worked (else its error fails the case), the
 * gateway answers (else the case is skipped with `unavailable`).
 */
export function ready(t, setupError, unavailable) {
  if (setupError) throw setupError;
  if (unavailable) {
    t.skip(unavailable);
    return false;
  }
  return true;
}

/** Closes both clients, releases the sandbox, stops sandboxd and removes `tmp`, whatever fails. */
export async function teardown({ clients, sd, sandboxId, tmp }) {
  for (const client of clients) await client?.close().catch(() => {});
  try {
    if (sandboxId) await sd.api.release(sandboxId).catch(() => {});
    await sd?.stop();
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function shorten(s, max = 1500) {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} chars)`;
}

/** A readable account of where two JSON texts part. */
export function describeDifference(a, b) {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  if (x.length + y.length <= 3000) return `    ours:     ${x}\n    upstream: ${y}`;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const from = Math.max(0, i - 200);
  return `    first difference at JSON offset ${i} (lengths ${x.length} / ${y.length}):\n` +
    `    ours:     …${x.slice(from, i + 400)}…\n    upstream: …${y.slice(from, i + 400)}…`;
}

/**
 * Judges one call's two outcomes into `failures`: a `deliberate` difference
 * (unless `selftest`, where both sides are upstream) checks what each side
 * does instead and is reported as a diagnostic; any other pair must be equal.
 */
export function compareCall(t, { label, a, b, deliberate, selftest, failures }) {
  if (deliberate && !selftest) {
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
