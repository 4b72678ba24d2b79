// Helpers for the terminal server's end-to-end suite: the seed tree, the
// exact result shapes cli-mcp-server 0.2.5 gives (stdout block, stderr block
// and error blocks marked "error": true, the return-code line, isError never
// set), and a raw tools/call that shows the wire form (the SDK's zod schemas
// strip the non-standard "error" field from what callTool returns).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { rawToolCall } from './mcp_wire.mjs';
import { REFERENCE_DIR } from './sandboxd.mjs';

export const SEED_FILES = {
  'a.txt': 'hello\n',
  'sub/b.txt': 'bee\n',
  'dir with space/c.txt': 'c\n',
};
export const LISTING = 'a.txt\ndir with space\nsub\n';
export const OPERATOR_OFF = "' is not supported. Set ALLOW_SHELL_OPERATORS=true to enable.";

/** The content blocks of a command that ran (as on the wire). */
export function ran(out, err, code) {
  const content = [];
  if (out) content.push({ type: 'text', text: out });
  if (err) content.push({ type: 'text', text: err, error: true });
  content.push({ type: 'text', text: `\nCommand completed with return code: ${code}` });
  return content;
}

/** The single error block of a refused or failed command (as on the wire). */
export function failed(text) {
  return [{ type: 'text', text, error: true }];
}

/** What the SDK's callTool gives for `wire` blocks: the same without "error". */
export function viaSdk(wire) {
  return { content: wire.map(({ type, text }) => ({ type, text })) };
}

/** tools/list must carry the reference's names and input schemas exactly. */
export function checkToolList(tools) {
  const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'terminal.json'), 'utf8'));
  assert.deepEqual(tools.map((t) => t.name), ref.tools.map((t) => t.name));
  for (const [i, want] of ref.tools.entries()) {
    assert.equal(JSON.stringify(tools[i].inputSchema), JSON.stringify(want.inputSchema), want.name);
    assert.equal(typeof tools[i].description, 'string');
    assert.equal(tools[i].outputSchema, undefined);
  }
}

/** The security report show_security_rules gives for a policy. */
export function securityRules({ commands, flags, maxLength, timeout }) {
  return 'Security Configuration:\n==================\nWorking Directory: /data\n\n' +
    `Allowed Commands:\n----------------\n${commands}\n\n` +
    `Allowed Flags:\n-------------\n${flags}\n\n` +
    `Security Limits:\n---------------\nMax Command Length: ${maxLength} characters\n` +
    `Command Timeout: ${timeout} seconds\n`;
}

/**
 * tools/call over raw HTTP on the session of a connected SDK client; returns
 * the JSON-RPC result exactly as sent (the "error": true fields the SDK strips).
 */
export async function rawCall(url, client, name, args) {
  return (await rawToolCall(url, client, name, args, { id: 4242, timeoutMs: 60_000 })).result;
}

/** Processes on this host whose command line is exactly `argv` (zombies excluded). */
export function processesRunning(argv) {
  const want = argv.join('\0') + '\0';
  const found = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (cmdline === want && state !== 'Z') found.push(Number(pid));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}
