// The cases of differential_localmemory.test.mjs: each starts from a seed
// memory file (its exact bytes, or null for no file), runs its calls in
// order against sandboxd's localmemory server and against upstream
// @modelcontextprotocol/server-memory 2026.8.31, and then compares the
// memory files both left behind, byte for byte.
//
// A call marked deliberate() is one where sandboxd differs on purpose; its
// check(ours, upstream) asserts what each side does instead. A case with
// `file` set to a function checks the two resulting files that way instead
// of requiring them equal (again only for deliberate differences).

import assert from 'node:assert/strict';

/** The file MCP-Atlas points upstream at, and sandboxd's default (inside /data). */
export const MEMORY_REL = 'repos/memory_mcp_server/memories-for-mcp.json';
export const MEMORY_PATH = `/data/${MEMORY_REL}`;

const line = (o) => JSON.stringify(o);
const entity = (name, entityType, observations = []) => ({ name, entityType, observations });
const relation = (from, to, relationType) => ({ from, to, relationType });
const entityLine = (e) => line({ type: 'entity', ...e });
const relationLine = (r) => line({ type: 'relation', ...r });

const call = (tool, args) => ({ tool, args });
const deliberate = (c, why, check) => ({ ...c, deliberate: { why, check } });

/** Both sides failed; ours names the file and the line; upstream's text is its own. */
const corruptOn = (lineNo, what) => (ours, upstream) => {
  assert.equal(upstream.result?.isError, true, 'upstream fails as well');
  assert.equal(ours.result?.isError, true, 'ours fails');
  const text = ours.result.content[0].text;
  assert.ok(text.startsWith(`The memory file ${MEMORY_PATH} is corrupt: line ${lineNo}: ${what}`), text);
  assert.ok(text.includes('Nothing was read or changed'), text);
};

/** Upstream answers (ignoring the bad line); ours refuses to touch the file. */
const refusedWhereUpstreamIgnores = (lineNo, what) => (ours, upstream) => {
  assert.notEqual(upstream.result?.isError, true, 'upstream ignores the line');
  assert.equal(ours.result?.isError, true, 'ours refuses');
  const text = ours.result.content[0].text;
  assert.ok(text.startsWith(`The memory file ${MEMORY_PATH} is corrupt: line ${lineNo}: ${what}`), text);
};

const SEED_GRAPH = [
  entityLine(entity('Alice', 'person', ['likes tea', 'Works at ACME'])),
  entityLine(entity('Bob', 'person', ['plays chess'])),
  entityLine(entity('ACME', 'organization', ['makes anvils'])),
  relationLine(relation('Alice', 'ACME', 'works_at')),
  relationLine(relation('Bob', 'Alice', 'knows')),
  relationLine(relation('Ghost', 'Nobody', 'haunts')),
].join('\n');

const UNICODE = {
  istanbul: '\u0130stanbul',
  sigma: '\u039f\u0394\u039f\u03a3',
  emoji: 'rocket \u{1F680} launch',
  controls: 'tab\there\nnewline "quoted" back\\slash \u0001 \u007f \u2028 \u2029',
  nul: 'nul\u0000inside',
};

const MANY = Array.from({ length: 150 }, (_, i) =>
  entity(`entity-${String(i).padStart(3, '0')}`, i % 3 === 0 ? 'Fizz' : 'plain',
    Array.from({ length: i % 5 }, (_, k) => `observation ${k} of ${i}${i % 7 === 0 ? ' TEA' : ''}`)));

export const CASES = [
  {
    name: 'an absent file reads as an empty graph and reads create nothing',
    seed: null,
    calls: [
      call('read_graph', {}),
      call('search_nodes', { query: '' }),
      call('open_nodes', { names: ['x'] }),
      call('read_graph', undefined),
    ],
  },
  {
    name: 'a mutation that changes nothing still writes the (empty) file',
    seed: null,
    calls: [call('delete_entities', { entityNames: ['nobody'] }), call('read_graph', {})],
  },
  {
    name: 'every tool on a fresh graph',
    seed: null,
    calls: [
      call('create_entities', { entities: [entity('Alice', 'person', ['likes tea']), entity('Bob', 'person')] }),
      call('create_entities', { entities: [entity('Alice', 'cat'), entity('Carol', 'robot', ['Beeps'])] }),
      call('create_relations', { relations: [relation('Alice', 'Bob', 'knows'), relation('Bob', 'Carol', 'builds')] }),
      call('create_relations', { relations: [relation('Alice', 'Bob', 'knows')] }),
      call('add_observations', { observations: [{ entityName: 'Bob', contents: ['plays chess'] }, { entityName: 'Alice', contents: ['likes tea', 'reads'] }] }),
      call('search_nodes', { query: 'TEA' }),
      call('search_nodes', { query: 'robot' }),
      call('open_nodes', { names: ['Bob', 'Nobody'] }),
      call('delete_observations', { deletions: [{ entityName: 'Bob', observations: ['plays chess'] }, { entityName: 'Nobody', observations: ['x'] }] }),
      call('delete_relations', { relations: [relation('Bob', 'Carol', 'builds')] }),
      call('delete_entities', { entityNames: ['Alice', 'Nobody'] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'repeats inside one call are all added (upstream filters against the graph only)',
    seed: null,
    calls: [
      call('create_entities', { entities: [entity('a', 'T', ['x']), entity('a', 'U'), entity('b', 'T')] }),
      call('create_relations', { relations: [relation('a', 'b', 'r'), relation('a', 'b', 'r'), relation('b', 'a', 'r')] }),
      call('add_observations', { observations: [{ entityName: 'a', contents: ['y', 'y', 'x'] }, { entityName: 'a', contents: ['y', 'z'] }] }),
      call('open_nodes', { names: ['a'] }),
      call('delete_observations', { deletions: [{ entityName: 'a', observations: ['y'] }] }),
      call('delete_relations', { relations: [relation('a', 'b', 'r')] }),
      call('read_graph', {}),
      call('delete_entities', { entityNames: ['a'] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'add_observations on a missing entity fails and applies nothing',
    seed: SEED_GRAPH,
    calls: [
      call('add_observations', { observations: [{ entityName: 'Alice', contents: ['new'] }, { entityName: 'Zed', contents: ['x'] }] }),
      call('add_observations', { observations: [{ entityName: '', contents: [] }] }),
      call('open_nodes', { names: ['Alice'] }),
      call('add_observations', { observations: [] }),
    ],
  },
  {
    name: 'a seeded graph: search and open return relations touching either end',
    seed: SEED_GRAPH,
    calls: [
      call('read_graph', {}),
      call('search_nodes', { query: 'acme' }),
      call('search_nodes', { query: 'PERSON' }),
      call('search_nodes', { query: 'nobody' }),
      call('search_nodes', { query: '' }),
      call('open_nodes', { names: ['Alice'] }),
      call('open_nodes', { names: ['Ghost', 'Nobody'] }),
      call('open_nodes', { names: [] }),
      call('delete_entities', { entityNames: ['Alice'] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'a file with CRLF, blank and white-space lines, any key order, relations first',
    seed: '\r\n' + line({ to: 'b', relationType: 'r', type: 'relation', from: 'a' }) + '\r\n \t \n\u00a0\u2028\n' +
      line({ observations: ['o'], entityType: 'T', name: 'a', type: 'entity' }) + '\n\n' +
      line({ type: 'entity', name: 'b', entityType: 'T', observations: [] }) + '\n',
    calls: [
      call('read_graph', {}),
      call('create_relations', { relations: [] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'entities sharing a name (possible in a seeded file)',
    seed: [entityLine(entity('dup', 'first', ['a'])), entityLine(entity('dup', 'second', ['b'])),
      relationLine(relation('dup', 'dup', 'self'))].join('\n'),
    calls: [
      call('add_observations', { observations: [{ entityName: 'dup', contents: ['b', 'c'] }] }),
      call('delete_observations', { deletions: [{ entityName: 'dup', observations: ['a'] }] }),
      call('open_nodes', { names: ['dup'] }),
      call('create_entities', { entities: [entity('dup', 'third')] }),
      call('search_nodes', { query: 'SECOND' }),
      call('delete_entities', { entityNames: ['dup'] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'unicode, control characters and NUL survive and search case-insensitively',
    seed: null,
    calls: [
      call('create_entities', { entities: Object.entries(UNICODE).map(([k, v]) => entity(v, k, [v.toUpperCase(), `${k}!`])) }),
      call('search_nodes', { query: '\u0130' }),
      call('search_nodes', { query: 'i\u0307stan' }),
      call('search_nodes', { query: 'istan' }),
      call('search_nodes', { query: '\u03bf\u03b4\u03bf\u03c2' }),
      call('search_nodes', { query: '\u03a3' }),
      call('search_nodes', { query: '\u{1F680}' }),
      call('search_nodes', { query: '\u0000' }),
      call('search_nodes', { query: '"QUOTED"' }),
      call('open_nodes', { names: [UNICODE.nul, UNICODE.controls] }),
      call('add_observations', { observations: [{ entityName: UNICODE.nul, contents: ['\u00e9', 'e\u0301'] }] }),
      call('add_observations', { observations: [{ entityName: 'nul', contents: ['x'] }] }),
      call('create_relations', { relations: [relation(UNICODE.emoji, UNICODE.sigma, '\u2192')] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'empty strings are ordinary names',
    seed: null,
    calls: [
      call('create_entities', { entities: [entity('', ''), entity(' ', 'space', [''])] }),
      call('create_relations', { relations: [relation('', ' ', '')] }),
      call('add_observations', { observations: [{ entityName: '', contents: ['', ''] }] }),
      call('search_nodes', { query: ' ' }),
      call('open_nodes', { names: [''] }),
      call('delete_entities', { entityNames: [''] }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'a few hundred entities',
    seed: null,
    calls: [
      call('create_entities', { entities: MANY.slice(0, 100) }),
      call('create_entities', { entities: MANY.slice(50) }),
      call('create_relations', { relations: MANY.slice(1).map((e, i) => relation(MANY[i].name, e.name, 'next')) }),
      call('search_nodes', { query: 'tea' }),
      call('search_nodes', { query: 'fizz' }),
      call('open_nodes', { names: ['entity-007', 'entity-149', 'entity-999'] }),
      call('delete_entities', { entityNames: MANY.filter((_, i) => i % 2 === 0).map((e) => e.name) }),
      call('read_graph', {}),
    ],
  },
  {
    name: 'invalid arguments are refused with the SDK\'s messages and change nothing',
    seed: SEED_GRAPH,
    calls: [
      call('create_entities', {}),
      call('create_entities', { entities: [{ name: 'x' }] }),
      call('create_entities', { entities: [{ name: 1, entityType: 'T', observations: [] }] }),
      call('create_entities', { entities: 'nope' }),
      call('create_entities', { entities: [{ name: 'x', entityType: 'T', observations: [1, null] }] }),
      call('create_relations', { relations: [{ from: 'a', to: 'b' }] }),
      call('add_observations', { observations: [{ entityName: 'Alice' }] }),
      call('delete_entities', { entityNames: [1] }),
      call('delete_observations', { deletions: {} }),
      call('delete_relations', {}),
      call('search_nodes', {}),
      call('search_nodes', { query: 5 }),
      call('open_nodes', { names: 'Alice' }),
      call('create_entities', undefined),
      call('no_such_tool', {}),
    ],
  },
  {
    name: 'unknown argument keys are ignored and left out of the results',
    seed: null,
    calls: [
      call('create_entities', { entities: [{ observations: ['o'], extra: true, entityType: 'T', name: 'n' }], more: 1 }),
      call('create_relations', { relations: [{ relationType: 'r', to: 'n', from: 'n', weight: 3 }] }),
      call('add_observations', { observations: [{ contents: ['p'], entityName: 'n', why: 'x' }] }),
      call('read_graph', { ignored: 1 }),
      call('search_nodes', { query: 'n', limit: 1 }),
    ],
  },
  {
    name: 'deliberate: a line that is not JSON',
    seed: [entityLine(entity('a', 'T')), '{"type":"entity","name":"b"', relationLine(relation('a', 'b', 'r'))].join('\n'),
    calls: [
      deliberate(call('read_graph', {}), 'ours names the file and the line',
        corruptOn(2, 'not valid JSON (syntax error at byte 28 of the line)')),
      deliberate(call('create_entities', { entities: [entity('c', 'T')] }), 'ours names the file and the line',
        corruptOn(2, 'not valid JSON')),
    ],
  },
  {
    name: 'deliberate: a byte order mark',
    seed: '\ufeff' + entityLine(entity('a', 'T')),
    calls: [
      deliberate(call('search_nodes', { query: 'a' }), 'ours names the file and the line',
        corruptOn(1, 'not valid JSON (it starts with a byte order mark)')),
      deliberate(call('delete_entities', { entityNames: ['a'] }), 'ours names the file and the line',
        corruptOn(1, 'not valid JSON (it starts with a byte order mark)')),
    ],
  },
  {
    name: 'deliberate: a line of an unknown type is refused, not silently dropped',
    seed: [entityLine(entity('a', 'T')), line({ type: 'note', text: 'keep me' }), entityLine(entity('b', 'T'))].join('\n'),
    calls: [
      deliberate(call('read_graph', {}), 'upstream ignores the line, ours reports it',
        refusedWhereUpstreamIgnores(2, '"type" is "note", expected "entity" or "relation"')),
      deliberate(call('delete_entities', { entityNames: ['b'] }), 'upstream drops the line from the file, ours refuses',
        refusedWhereUpstreamIgnores(2, '"type" is "note"')),
    ],
    file: (ours, upstream, seed) => {
      assert.equal(ours, seed, 'ours leaves the file byte for byte');
      assert.equal(upstream, entityLine(entity('a', 'T')), 'upstream rewrote it without the note and b');
    },
  },
  {
    name: 'deliberate: an entity with an extra key is refused, not silently stripped',
    seed: [line({ type: 'entity', name: 'a', entityType: 'T', observations: [], createdAt: '2025-01-01' }),
      relationLine(relation('a', 'a', 'self'))].join('\n'),
    calls: [
      deliberate(call('add_observations', { observations: [{ entityName: 'a', contents: ['x'] }] }),
        'upstream drops createdAt when it rewrites the file; ours refuses',
        refusedWhereUpstreamIgnores(1, 'entity has an unexpected key "createdAt"')),
    ],
    file: (ours, upstream, seed) => {
      assert.equal(ours, seed, 'ours leaves the file byte for byte');
      assert.equal(upstream, [entityLine(entity('a', 'T', ['x'])), relationLine(relation('a', 'a', 'self'))].join('\n'));
    },
  },
  {
    name: 'deliberate: an entity without observations',
    seed: line({ type: 'entity', name: 'a', entityType: 'T' }),
    calls: [
      deliberate(call('open_nodes', { names: ['a'] }),
        'upstream returns the entity without observations (its own outputSchema then fails); ours reports the line',
        (ours) => {
          assert.equal(ours.result?.isError, true);
          assert.ok(ours.result.content[0].text.startsWith(
            `The memory file ${MEMORY_PATH} is corrupt: line 1: entity has no "observations"`), ours.result.content[0].text);
        }),
      deliberate(call('add_observations', { observations: [{ entityName: 'a', contents: ['x'] }] }),
        'upstream fails on undefined.includes; ours reports the line', corruptOn(1, 'entity has no "observations"')),
    ],
  },
];
