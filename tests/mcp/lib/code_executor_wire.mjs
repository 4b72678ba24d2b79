// Helpers for the code-executor suites: raw tools/call on an SDK client's
// session (the SDK's result schema may drop fields it does not know, and
// upstream's answers carry one: "isError" inside the text block), and the
// parsing of upstream-shaped answers.

import assert from 'node:assert/strict';

/** The JSON-RPC response of a raw tools/call on `client`'s session (JSON or SSE reply). */
export async function rawToolCall(url, client, name, args, id = 9001) {
  const transport = client.transport;
  const r = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId,
      'mcp-protocol-version': transport.protocolVersion,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
    signal: AbortSignal.timeout(120_000),
  });
  assert.equal(r.status, 200, `raw tools/call ${name}: HTTP ${r.status}`);
  const text = await r.text();
  if ((r.headers.get('content-type') || '').includes('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const message = JSON.parse(line.slice(5));
      if (message.id === id) return message;
    }
    throw new Error(`no response to ${id} in the event stream: ${text}`);
  }
  return JSON.parse(text);
}

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
