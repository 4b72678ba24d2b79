// The localmemory scenario of e2e_localmemory.test.mjs: a seed memory file,
// the tools/list checks against shared/reference/tools/localmemory.json, one
// pass over all 9 tools with the exact results upstream gives (texts are
// JSON.stringify(value, null, 2), as upstream builds them), and the memory
// file that pass leaves behind. The same pass runs against upstream
// server-memory too, so the expectations stay upstream's.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { REFERENCE_DIR } from './sandboxd.mjs';
import { stripDescriptions } from './filesystem_scenario.mjs';

export const REFERENCE = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'localmemory.json'), 'utf8'));

/** Where sandboxd keeps the graph by default (MCP-Atlas's MEMORY_FILE_PATH), relative to /data. */
export const MEMORY_REL = 'repos/memory_mcp_server/memories-for-mcp.json';

const e = (name, entityType, observations) => ({ name, entityType, observations });
const r = (from, to, relationType) => ({ from, to, relationType });
/** Upstream's file layout: one JSON.stringify per line, "\n" between, none at the end. */
export const jsonl = (graph) => [
  ...graph.entities.map((x) => JSON.stringify({ type: 'entity', ...x })),
  ...graph.relations.map((x) => JSON.stringify({ type: 'relation', ...x })),
].join('\n');

export const SEED_GRAPH = {
  entities: [
    e('Alice', 'person', ['likes tea', 'Works at ACME']),
    e('Bob', 'person', ['plays chess']),
    e('ACME', 'organization', ['makes anvils']),
  ],
  relations: [r('Alice', 'ACME', 'works_at'), r('Bob', 'Alice', 'knows'), r('Ghost', 'Nobody', 'haunts')],
};
// Seeded the way MCP-Atlas ships it: a trailing newline upstream never writes.
export const SEED_FILE = `${jsonl(SEED_GRAPH)}\n`;

export const FINAL_GRAPH = {
  entities: [
    e('Alice', 'person', ['likes tea']),
    e('Bob', 'person', ['plays chess', 'likes tea']),
    e('Carol', 'robot', ['Beeps']),
  ],
  relations: [r('Ghost', 'Nobody', 'haunts')],
};
export const FINAL_FILE = jsonl(FINAL_GRAPH);

const pretty = (v) => JSON.stringify(v, null, 2);
const structured = (text, structuredContent) => ({ content: [{ type: 'text', text }], structuredContent });
const graphResult = (g) => structured(pretty(g), g);
const done = (message) => structured(message, { success: true, message });

/** tools/list against the reference: names, order, schemas, annotations; our own descriptions. */
export function checkToolList(tools) {
  assert.deepEqual(tools.map((t) => t.name), REFERENCE.tools.map((t) => t.name), 'tool names and order');
  for (const [i, ref] of REFERENCE.tools.entries()) {
    const tool = tools[i];
    assert.deepEqual(stripDescriptions(tool.inputSchema), ref.inputSchema, `${ref.name}: inputSchema`);
    assert.deepEqual(stripDescriptions(tool.outputSchema), ref.outputSchema, `${ref.name}: outputSchema`);
    assert.deepEqual(tool.annotations, ref.annotations, `${ref.name}: annotations`);
    assert.ok(typeof tool.description === 'string' && tool.description.trim().length > 0, `${ref.name}: description`);
  }
}

/** The seed graph read back, as read_graph returns it. */
export const SEED_READ = graphResult(SEED_GRAPH);

/** Each of the 9 tools once on the seeded graph, exact results. */
export async function runLocalmemoryTools(client) {
  const call = (name, args) => client.callTool({ name, arguments: args });

  assert.deepEqual(await call('read_graph', {}), SEED_READ, 'read_graph');

  const carol = e('Carol', 'robot', ['Beeps']);
  assert.deepEqual(await call('create_entities', { entities: [carol, e('Alice', 'cat', [])] }),
    structured(pretty([carol]), { entities: [carol] }), 'create_entities skips Alice');

  const built = r('Carol', 'ACME', 'works_at');
  assert.deepEqual(await call('create_relations', { relations: [built, r('Alice', 'ACME', 'works_at')] }),
    structured(pretty([built]), { relations: [built] }), 'create_relations skips the existing one');

  const added = [{ entityName: 'Bob', addedObservations: ['likes tea'] }];
  assert.deepEqual(await call('add_observations', { observations: [{ entityName: 'Bob', contents: ['likes tea', 'plays chess'] }] }),
    structured(pretty(added), { results: added }), 'add_observations');
  assert.deepEqual(await call('add_observations', { observations: [{ entityName: 'Zed', contents: ['x'] }] }),
    { content: [{ type: 'text', text: 'Entity with name Zed not found' }], isError: true }, 'add_observations: missing entity');

  assert.deepEqual(await call('search_nodes', { query: 'TEA' }), graphResult({
    entities: [e('Alice', 'person', ['likes tea', 'Works at ACME']), e('Bob', 'person', ['plays chess', 'likes tea'])],
    relations: [r('Alice', 'ACME', 'works_at'), r('Bob', 'Alice', 'knows')],
  }), 'search_nodes');
  assert.deepEqual(await call('open_nodes', { names: ['Carol', 'Nobody'] }),
    graphResult({ entities: [carol], relations: [built] }), 'open_nodes');

  assert.deepEqual(await call('delete_observations', { deletions: [{ entityName: 'Alice', observations: ['Works at ACME'] }] }),
    done('Observations deleted successfully'), 'delete_observations');
  assert.deepEqual(await call('delete_relations', { relations: [r('Bob', 'Alice', 'knows')] }),
    done('Relations deleted successfully'), 'delete_relations');
  assert.deepEqual(await call('delete_entities', { entityNames: ['ACME'] }),
    done('Entities deleted successfully'), 'delete_entities (and the relations to ACME)');

  assert.deepEqual(await call('read_graph', {}), graphResult(FINAL_GRAPH), 'read_graph at the end');
}

/** A second, different graph for re-initialising. */
export const OTHER_GRAPH = { entities: [e('Zoe', 'person', ['new seed'])], relations: [] };
export const OTHER_READ = graphResult(OTHER_GRAPH);
