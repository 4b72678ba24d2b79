// The memory server's knowledge-graph resource through sandboxd with the
// official SDK: a client that subscribed gets notifications/resources/updated
// on its session's standalone GET stream after every change that went through
// (its own or another session's), none for reads or failed changes, none
// after unsubscribing; a session that did not subscribe gets none. (Lists,
// reads and errors are compared with upstream in differential_localmemory.)

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { connectMcp, mcpUnavailableReason, startSandboxd } from './lib/sandboxd.mjs';

const URI = 'memory://knowledge-graph';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A connected client that records the resources/updated notifications it gets. */
async function recordingClient(url) {
  const client = await connectMcp(url);
  const updates = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  return { client, updates };
}

const entity = (name) => ({ name: 'create_entities', arguments: { entities: [{ name, entityType: 't', observations: [] }] } });

describe('localmemory: resource subscriptions through sandboxd', () => {
  let sd;
  let url;
  let sandboxId;
  before(async () => {
    sd = await startSandboxd();
    const sandbox = await sd.api.acquire(['localmemory']);
    sandboxId = sandbox.local_sandbox_id;
    url = sandbox.servers[0].mcp_server_url;
    await mcpUnavailableReason(url);
  });
  after(async () => {
    if (sandboxId) await sd.api.release(sandboxId).catch(() => {});
    await sd?.stop();
  });

  test('a subscribed session is told of every change, and only then', async () => {
    const a = await recordingClient(url);
    const b = await recordingClient(url);  // never subscribes
    try {
      assert.deepEqual(await a.client.subscribeResource({ uri: URI }), {});
      // The SDK opens each session's GET stream in the background after
      // initialize: change the graph until the first notice shows it open.
      let n = 0;
      for (; a.updates.length === 0 && n < 50; n++) {
        await a.client.callTool(entity(`warm-${n}`));
        await sleep(100);
      }
      assert.ok(a.updates.length > 0, 'no notification reached the subscribed session');
      a.updates.length = 0;
      await sleep(200);  // b's stream is open by now too

      await a.client.callTool(entity('one'));
      await b.client.callTool(entity('two'));  // another session's change counts too
      await a.client.callTool({ name: 'read_graph', arguments: {} });  // a read does not
      const failed = await a.client.callTool({ name: 'add_observations',
        arguments: { observations: [{ entityName: 'nobody', contents: ['x'] }] } });
      assert.equal(failed.isError, true);  // a failed change does not
      await sleep(300);
      assert.deepEqual(a.updates, [URI, URI]);
      assert.deepEqual(b.updates, []);

      assert.deepEqual(await a.client.unsubscribeResource({ uri: URI }), {});
      await a.client.callTool(entity('three'));
      await sleep(300);
      assert.deepEqual(a.updates, [URI, URI]);
    } finally {
      await a.client.close().catch(() => {});
      await b.client.close().catch(() => {});
    }
  });
});
