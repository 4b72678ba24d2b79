// Differential test of localmemory@2025.8.4 (MCP-Atlas' pin): sandboxd with
// --server-settings {"localmemory": {"variant": "2025.8.4"}} against upstream
// @modelcontextprotocol/server-memory 2025.8.4 and 2025.4.25 (Toolathlon's
// pin; npm aliases server-memory-2025.8.4 and server-memory-2025.4.25), with
// today's corpus (lib/localmemory_corpus.mjs) run unchanged. One sandboxd
// serves both runs, a sandbox each.
//
// Where the variant differs on purpose, DELIBERATE below says what each side
// does and checks it:
//   - the corpus's own deliberate cases (a corrupt memory file is refused,
//     not half read) hold as they are, the failure being a JSON-RPC error on
//     both sides as everything 2025.8.4 refused;
//   - 2025.8.4 validated no argument: what it got it stored as given (unknown
//     keys and wrong types included) or failed on in JavaScript; sandboxd
//     checks the arguments against the schema, drops unknown keys, and keeps
//     the canonical key order in what it prints and writes;
//   - a line with a key beyond the four is refused as for today's version,
//     where 2025.8.4 kept it;
//   - 2025.4.25 alone wanted arguments for read_graph too.

import assert from 'node:assert/strict';

import { runLocalmemoryDifferential } from './lib/localmemory_differential.mjs';
import { startSandboxd } from './lib/sandboxd.mjs';

const REJECTED = /^McpError: MCP error -32603: /;

/** An outcome with a JSON-RPC -32603 error as the isError result the corpus's checks expect. */
function asResult(outcome) {
  if (!outcome.thrown || !REJECTED.test(outcome.thrown)) return outcome;
  return { result: { content: [{ type: 'text', text: outcome.thrown.replace(REJECTED, '') }], isError: true } };
}

/** The text of a successful result. */
function okText(outcome, side) {
  assert.ok(outcome.result && !outcome.result.isError, `${side} succeeds: ${JSON.stringify(outcome)}`);
  return outcome.result.content[0].text;
}

/** JSON values equal but for the order of object keys. */
function sameButKeyOrder(x, y) {
  const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
  assert.notEqual(JSON.stringify(x), JSON.stringify(y), 'the key order differs');
  assert.deepEqual(canon(x), canon(y));
}
const lines = (file) => file.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

const KEY_ORDER = {
  why: '2025.8.4 prints and rewrites each line with its keys in the order read; ours in the canonical order',
  check: (a, b) => sameButKeyOrder(JSON.parse(okText(a, 'ours')), JSON.parse(okText(b, 'upstream'))),
};
const VALIDATED = (tool) => ({
  why: '2025.8.4 validated nothing (stored the values as given or failed in JavaScript); ours refuses arguments ' +
    'that do not fit the schema with a JSON-RPC error naming them',
  check: (a, b) => {
    assert.equal(a.code, -32603);
    assert.match(a.thrown, new RegExp(`^McpError: MCP error -32603: Invalid arguments for tool ${tool}: `));
    assert.ok(b.code === -32603 || (b.result && !b.result.isError), `upstream: ${JSON.stringify(b)}`);
  },
});
const EXTRA_KEYS = {
  why: '2025.8.4 kept unknown keys of entities and relations (results, graph and file); ours drops them',
  check: (a, b) => {
    const [x, y] = [okText(a, 'ours'), okText(b, 'upstream')];
    assert.doesNotMatch(x, /"(extra|weight)"/);
    assert.match(y, /"(extra|weight)"/);
  },
};

/** Per case name: {calls: {number: deliberate}, file: check of the two files}. */
const DELIBERATE = {
  'a file with CRLF, blank and white-space lines, any key order, relations first': {
    calls: { 1: KEY_ORDER, 3: KEY_ORDER },
    file: (ours, upstream) => sameButKeyOrder(lines(ours), lines(upstream)),
  },
  'invalid arguments are refused with the SDK\'s messages and change nothing': {
    calls: Object.fromEntries(['create_entities', 'create_entities', 'create_entities', 'create_entities',
      'create_entities', 'create_relations', 'add_observations', 'delete_entities', 'delete_observations',
      'delete_relations', 'search_nodes', 'search_nodes', 'open_nodes'].map((tool, i) => [i + 1, VALIDATED(tool)])),
    file: (ours, upstream, seed) => {
      assert.equal(ours, seed, 'ours changed nothing');
      assert.notEqual(upstream, seed, 'upstream stored what it was given');
    },
  },
  'unknown argument keys are ignored and left out of the results': {
    calls: { 1: EXTRA_KEYS, 2: EXTRA_KEYS, 4: EXTRA_KEYS, 5: EXTRA_KEYS },
    file: (ours, upstream) => {
      assert.doesNotMatch(ours, /"(extra|weight)"/);
      assert.match(upstream, /"extra":true/);
      assert.match(upstream, /"weight":3/);
    },
  },
  'deliberate: an entity with an extra key is refused, not silently stripped': {
    calls: {
      1: {
        why: '2025.8.4 rewrote lines as read, createdAt kept; ours refuses the file as it does for today\'s version ' +
          '(its store keeps only the four keys)',
        check: (a, b) => {
          assert.match(a.thrown, /^McpError: MCP error -32603: The memory file .* is corrupt: line 1: entity has an unexpected key "createdAt"/);
          okText(b, 'upstream');
        },
      },
    },
    file: (ours, upstream, seed) => {
      assert.equal(ours, seed, 'ours leaves the file byte for byte');
      assert.equal(upstream.split('\n')[0],
        '{"type":"entity","name":"a","entityType":"T","observations":["x"],"createdAt":"2025-01-01"}');
    },
  },
};

const OLDER_READ_GRAPH = {
  'an absent file reads as an empty graph and reads create nothing': {
    calls: {
      4: {
        why: '2025.4.25 wanted arguments for read_graph too; the variant follows 2025.8.4, which read the graph',
        check: (a, b) => {
          assert.equal(okText(a, 'ours'), '{\n  "entities": [],\n  "relations": []\n}');
          assert.equal(b.thrown, 'McpError: MCP error -32603: No arguments provided for tool: read_graph');
        },
      },
    },
  },
};

const RUNS = [['server-memory-2025.8.4', {}], ['server-memory-2025.4.25', OLDER_READ_GRAPH]];

// One sandboxd for both runs (the suites run one after the other): started
// by the first, stopped by the last.
let shared = null;
let users = RUNS.length;
const sandboxd = {
  get: (extraArgs) => (shared ??= startSandboxd({ extraArgs })),
  put: async (sd) => {
    if (--users === 0) await sd.stop();
  },
};

for (const [upstreamPackage, extra] of RUNS) {
  const table = { ...DELIBERATE, ...extra };
  runLocalmemoryDifferential({
    variant: '2025.8.4',
    upstreamPackage,
    resources: false,
    sandboxd,
    deliberateOf: (kase, i, call) => {
      const own = table[kase.name]?.calls?.[i + 1];
      if (own) return own;
      // The corpus's own deliberate differences, failures being JSON-RPC errors on both sides.
      if (call.deliberate) return { why: call.deliberate.why, check: (a, b) => call.deliberate.check(asResult(a), asResult(b)) };
      return null;
    },
    fileOf: (kase) => table[kase.name]?.file ?? kase.file,
  });
}
