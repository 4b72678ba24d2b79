// A tools/call sent as raw HTTP on a connected SDK client's session: the
// SDK's result schemas drop fields they do not know, and some upstream
// answers carry such fields ("error": true on a terminal text block,
// "isError" inside a code-executor text block) that the suites must see.

import assert from 'node:assert/strict';

/**
 * The JSON-RPC response (request `id`) of a raw tools/call on `client`'s
 * session, whether the gateway answers with JSON or an event stream.
 */
export async function rawToolCall(url, client, name, args, { id = 9001, timeoutMs = 120_000 } = {}) {
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
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await r.text();
  assert.equal(r.status, 200, `raw tools/call ${name}: HTTP ${r.status}: ${text}`);
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
