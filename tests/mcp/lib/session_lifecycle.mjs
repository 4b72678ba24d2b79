// MCP Streamable HTTP session rules (spec 2025-06-18 / 2025-11-25, "Session
// Management" and "Protocol Version Header"), checked on one MCP URL. The
// conformance CLI 0.1.16 has no session-lifecycle scenario; this stands in.
//
//  - initialize answers with an Mcp-Session-Id (visible ASCII) that the SDK keeps;
//  - a non-initialize POST without Mcp-Session-Id: 400 (SHOULD);
//  - a POST with an unknown Mcp-Session-Id: 404 (MUST);
//  - an unsupported MCP-Protocol-Version header: 400 (MUST);
//  - DELETE with the session id ends it (or 405 if the server does not allow
//    that); after a successful DELETE the id answers 404 (MUST).

import assert from 'node:assert/strict';

import { connectMcp } from './sandboxd.mjs';

async function post(url, body, headers = {}) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  await r.arrayBuffer().catch(() => {});
  return r.status;
}

const TOOLS_LIST = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} };

export async function checkSessionLifecycle(url) {
  const client = await connectMcp(url);
  const transport = client.transport;
  try {
    const sid = transport.sessionId;
    assert.equal(typeof sid, 'string', 'initialize answered without Mcp-Session-Id');
    assert.match(sid, /^[\x21-\x7E]+$/, 'Mcp-Session-Id must be visible ASCII');
    const version = transport.protocolVersion;
    assert.ok(version, 'no negotiated protocol version');

    // The session works for a raw request carrying the headers.
    assert.equal(await post(url, TOOLS_LIST, { 'mcp-session-id': sid, 'mcp-protocol-version': version }), 200);
    assert.equal(await post(url, TOOLS_LIST, { 'mcp-protocol-version': version }), 400, 'no session id');
    assert.equal(await post(url, TOOLS_LIST, { 'mcp-session-id': `${sid}x`, 'mcp-protocol-version': version }), 404,
      'unknown session id');
    assert.equal(await post(url, TOOLS_LIST, { 'mcp-session-id': sid, 'mcp-protocol-version': '1999-01-01' }), 400,
      'unsupported MCP-Protocol-Version');

    const del = await fetch(url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sid, 'mcp-protocol-version': version },
      signal: AbortSignal.timeout(30_000),
    });
    await del.arrayBuffer().catch(() => {});
    assert.ok(del.ok || del.status === 405, `DELETE session: HTTP ${del.status}`);
    if (del.ok) {
      assert.equal(await post(url, TOOLS_LIST, { 'mcp-session-id': sid, 'mcp-protocol-version': version }), 404,
        'terminated session id');
    }
  } finally {
    await client.close();
  }
}
