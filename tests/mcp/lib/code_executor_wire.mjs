// Helpers for the code-executor suites: raw tools/call on an SDK client's
// session (lib/mcp_wire.mjs: upstream's answers carry "isError" inside the
// text block, which the SDK's result schema may drop), and the parsing of
// upstream-shaped answers.

import assert from 'node:assert/strict';

export { rawToolCall } from './mcp_wire.mjs';

/**
 * Calls `name` through the SDK and returns the parsed JSON of its one text
 * block; checks the block is the only one and the result has no isError of
 * its own (upstream sets none; its errors are in the text).
 */
export async function callJson(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  assert.equal(r.content.length, 1, JSON.stringify(r));
  assert.equal(r.content[0].type, 'text');
  assert.ok(!r.isError, `unexpected top-level isError: ${JSON.stringify(r)}`);
  return { text: r.content[0].text, body: JSON.parse(r.content[0].text) };
}

/** The random 8-hex suffix of a generated file name `<base>_<hex>.py`. */
export function suffixOf(name, base) {
  const m = new RegExp(`^${base}_([0-9a-f]{8})\\.py$`).exec(name);
  assert.ok(m, `not a generated ${base}_<hex>.py name: ${name}`);
  return m[1];
}
