// The differential suite of the filesystem MCP server, run by
// differential_filesystem*.test.mjs for today's version and each variant:
// sandboxd's native server
// (root /data, MCP Streamable HTTP through the gateway) against upstream
// @modelcontextprotocol/server-filesystem (2026.8.31, or the variant's pinned
// version through its npm alias; root = an identical copy
// of the seed tree on the host, stdio, TZ=UTC). The same calls, in the same
// order, go to both; every CallToolResult (content, structuredContent,
// isError) must be identical after normalising
//   (a) the root: upstream runs on <tmp>/data, so "<tmp>" is removed from its
//       results ("<tmp>/data/x" -> "/data/x", "../x" -> "<tmp>/x" -> "/x");
//   (b) get_file_info's created/modified/accessed values (placeholders, after
//       checking they are dates; a modified time equal to the seeded mtime is
//       kept as such, so a lost mtime still shows);
//   (c) the random temp-file name of an atomic write in error texts
//       ("<file>.<32 hex>.tmp").
// Where upstream prints entries in readdir order (list_directory,
// directory_tree, search_files) the order is that of the filesystem, not of
// the server, so those compare order-insensitively (lines sorted, tree
// children sorted by name). Everything else compares exactly. Afterwards the
// two trees (ours from the workspace dump, upstream's from disk) must hold the
// same entries with the same contents and permission bits.
//
// The cases are in differential_corpus.mjs, one subtest each; a variant
// states its deliberate differences through `deliberateOf`.
//
// SANDBOXD_DIFF_SELFTEST=1 runs upstream against a second upstream on another
// copy instead of sandboxd (checks the normalisation: everything must pass).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { MCP_DIR, connectMcp, makeTarGz, mcpUnavailableReason, startSandboxd } from './sandboxd.mjs';
import {
  callToolOutcome, compareCall, connectStdioUpstream, extractTarGz, ready as readyFor, shorten, snapshotTree,
  teardown, toolsView,
} from './differential.mjs';
import { CASES, ROOT, SEED_MTIME, TREE_IGNORE, writeSeedTree } from './differential_corpus.mjs';

const SELFTEST = process.env.SANDBOXD_DIFF_SELFTEST === '1';

// Node's Date#toString, e.g. "Tue Nov 14 2023 22:13:20 GMT+0000 (Coordinated Universal Time)".
const JS_DATE_RE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \(.+\)$/;

// --------------------------------------------------------------------------- sides

/** Upstream server-filesystem (`entry`) on `root` over stdio (TZ=UTC), connected. */
function startUpstream(entry, root) {
  // HOME: "~" expands to the sandbox's home, /root, on both sides. cwd: the
  // root, where sandboxd resolves relative paths (2025.7.1 resolved them
  // against its working directory).
  return connectStdioUpstream({ args: [entry, root], env: { ...process.env, TZ: 'UTC', HOME: '/root' }, cwd: root });
}

// --------------------------------------------------------------------------- calls

/** Replaces the ROOT placeholder in (nested) arguments. */
function substitute(value, root) {
  if (typeof value === 'string') return value.split(ROOT).join(root);
  if (Array.isArray(value)) return value.map((v) => substitute(v, root));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, root)]));
  }
  return value;
}

/** callTool; a thrown error (protocol error, client-side validation) becomes {thrown}. */
function invoke(side, tool, args) {
  return callToolOutcome(side.client, tool, args === undefined ? undefined : substitute(args, side.root));
}

function sortTree(nodes) {
  if (!Array.isArray(nodes)) return nodes;
  return nodes
    .map((n) => (n && Array.isArray(n.children) ? { ...n, children: sortTree(n.children) } : n))
    .sort((a, b) => {
      const x = JSON.stringify(a);
      const y = JSON.stringify(b);
      const byName = String(a?.name) < String(b?.name) ? -1 : String(a?.name) > String(b?.name) ? 1 : 0;
      return byName || (x < y ? -1 : x > y ? 1 : 0);
    });
}

/**
 * The text of a successful result, made independent of readdir order (and of
 * timestamps for get_file_info). `problems` collects format violations.
 */
function normaliseText(tool, text, problems) {
  if (tool === 'list_directory' || tool === 'search_files') {
    // readdir order: upstream prints entries as the filesystem returns them.
    return text.split('\n').sort().join('\n');
  }
  if (tool === 'directory_tree') {
    // readdir order inside each level; the text must still be 2-space JSON.
    let tree;
    try {
      tree = JSON.parse(text);
    } catch {
      problems.push(`directory_tree: not JSON: ${text.slice(0, 200)}`);
      return text;
    }
    if (text !== JSON.stringify(tree, null, 2)) problems.push('directory_tree: text is not JSON.stringify(tree, null, 2)');
    return JSON.stringify(sortTree(tree), null, 2);
  }
  if (tool === 'get_file_info') {
    return text.split('\n').map((line) => {
      const m = /^(created|modified|accessed): (.*)$/.exec(line);
      if (!m) return line;
      const [, key, value] = m;
      const ms = Date.parse(value);
      if (!JS_DATE_RE.test(value) || Number.isNaN(ms)) {
        problems.push(`get_file_info ${key}: not a JS Date string: ${JSON.stringify(value)}`);
        return line;
      }
      return `${key}: ${key === 'modified' && ms === SEED_MTIME * 1000 ? '<seeded mtime>' : '<date>'}`;
    }).join('\n');
  }
  return text;
}

/** The outcome of one call with the side's root prefix, random names and order normalised. */
function normalise(side, tool, outcome, problems) {
  let json = JSON.stringify(outcome);
  if (side.prefix) json = json.split(side.prefix).join('');
  json = json.replace(/\.[0-9a-f]{32}\.tmp/g, '.<random>.tmp');
  const out = JSON.parse(json);
  const r = out.result;
  if (r && !r.isError) {
    for (const block of Array.isArray(r.content) ? r.content : []) {
      if (block?.type === 'text' && typeof block.text === 'string') block.text = normaliseText(tool, block.text, problems);
    }
    if (r.structuredContent && typeof r.structuredContent.content === 'string') {
      r.structuredContent.content = normaliseText(tool, r.structuredContent.content, problems);
    }
  }
  return out;
}

// --------------------------------------------------------------------------- test

/**
 * Registers the suite: sandboxd's filesystem server (`variant`, null for
 * today's) against the npm package `upstreamPackage` (a name or alias in
 * tests/mcp/package.json). `deliberateOf(kase, index, call)` gives a call's
 * deliberate difference ({why, check}) or null; by default the corpus's own,
 * which describe today's version. `treeIgnore`: further paths the final tree
 * comparisons skip, each because of a deliberate difference of the variant.
 */
export function runFilesystemDifferential({
  variant = null, upstreamPackage = '@modelcontextprotocol/server-filesystem', deliberateOf = (kase, i, call) => call.deliberate,
  treeIgnore = [],
} = {}) {
  const upstreamEntry = path.join(MCP_DIR, 'node_modules', ...upstreamPackage.split('/'), 'dist', 'index.js');
  const title = `filesystem server${variant ? `@${variant}` : ''}: ${SELFTEST ? 'upstream vs upstream (selftest)' : `sandboxd vs ${upstreamPackage}`} (differential)`;
  describe(title, () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-diff-')));
    const ours = { label: 'ours', root: '/data', prefix: '', client: null };
    const upstream = { label: 'upstream', root: null, prefix: null, client: null };
    let sd = null;
    let sandboxId = null;
    let unavailable = null;
    let setupError = null;

    before(async () => {
      try {
        const seedDir = path.join(tmp, 'seed');
        fs.mkdirSync(seedDir);
        writeSeedTree(seedDir);
        const tarGz = makeTarGz(seedDir);

        upstream.prefix = path.join(tmp, 'upstream');
        upstream.root = path.join(upstream.prefix, 'data');
        extractTarGz(tarGz, upstream.root);

        if (SELFTEST) {
          ours.prefix = path.join(tmp, 'ours');
          ours.root = path.join(ours.prefix, 'data');
          extractTarGz(tarGz, ours.root);
          ours.client = await startUpstream(upstreamEntry, ours.root);
        } else {
          let extraArgs = [];
          if (variant) {
            // One variant per deployment: the settings file names it.
            const settings = path.join(tmp, 'settings.json');
            fs.writeFileSync(settings, JSON.stringify({ filesystem: { variant } }));
            extraArgs = ['--server-settings', settings];
          }
          sd = await startSandboxd({ extraArgs });
          const sandbox = await sd.api.acquire(['filesystem']);
          sandboxId = sandbox.local_sandbox_id;
          await sd.api.uploadAndInitialize(sandboxId, tarGz);
          const url = sandbox.servers[0].mcp_server_url;
          unavailable = await mcpUnavailableReason(url);
          if (!unavailable) ours.client = await connectMcp(url);
        }
        upstream.client = await startUpstream(upstreamEntry, upstream.root);
        // listTools lets the SDK validate structuredContent against outputSchema.
        if (ours.client) await ours.client.listTools();
        await upstream.client.listTools();
      } catch (err) {
        setupError = err;
      }
    });

    after(() => teardown({ clients: [ours.client, upstream.client], sd, sandboxId, tmp }));

    /** Shared preconditions of every case: setup worked, the gateway answers. */
    const ready = (t) => readyFor(t, setupError, unavailable);

    async function oursTree() {
      if (SELFTEST) return snapshotTree(ours.root);
      const dir = path.join(tmp, `dump-${Date.now()}`);
      extractTarGz(await sd.api.dump(sandboxId), dir);
      try {
        return snapshotTree(dir);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }

    for (const kase of CASES) {
      test(kase.name, async (t) => {
        if (!ready(t)) return;

        if (kase.special === 'tools/list') {
          const [a, b] = await Promise.all([ours.client.listTools(), upstream.client.listTools()]);
          assert.deepEqual(toolsView(a.tools), toolsView(b.tools));
          return;
        }

        if (kase.special === 'tree' || kase.special === 'modes') {
          const [a, b] = [await oursTree(), snapshotTree(upstream.root)];
          for (const rel of [...TREE_IGNORE, ...treeIgnore]) {
            delete a[rel];
            delete b[rel];
          }
          if (kase.special === 'tree') {
            const diffs = [];
            for (const rel of Object.keys(a).filter((r) => !(r in b)).sort()) diffs.push(`only in ours:     ${a[rel].type} ${rel}`);
            for (const rel of Object.keys(b).filter((r) => !(r in a)).sort()) diffs.push(`only in upstream: ${b[rel].type} ${rel}`);
            for (const rel of Object.keys(b).filter((r) => r in a).sort()) {
              const [x, y] = [a[rel], b[rel]];
              if (x.type !== y.type) diffs.push(`${rel}: ours a ${x.type}, upstream a ${y.type}`);
              else if (x.type === 'file' && !x.data.equals(y.data)) {
                diffs.push(`${rel}: contents differ\n    ours:     ${JSON.stringify(shorten(x.data.toString('utf8'), 300))}` +
                  `\n    upstream: ${JSON.stringify(shorten(y.data.toString('utf8'), 300))}`);
              } else if (x.type === 'symlink' && x.target !== y.target) {
                diffs.push(`${rel}: symlink to ${JSON.stringify(x.target)} (ours) vs ${JSON.stringify(y.target)} (upstream)`);
              }
            }
            assert.ok(diffs.length === 0, `the trees differ:\n${diffs.join('\n')}`);
          } else {
            const modes = (tree) => Object.fromEntries(Object.entries(tree).filter(([rel]) => rel in b && rel in a)
              .map(([rel, e]) => [rel, `${e.type} ${e.mode}`]));
            assert.deepEqual(modes(a), modes(b), 'permission bits');
          }
          return;
        }

        const failures = [];
        const problems = [];
        for (const [i, call] of kase.calls.entries()) {
          const { tool, args } = call;
          const deliberate = deliberateOf(kase, i, call);
          const [a, b] = await Promise.all([invoke(ours, tool, args), invoke(upstream, tool, args)]);
          const callProblems = [];
          const na = normalise(ours, tool, a, callProblems);
          const nb = normalise(upstream, tool, b, callProblems);
          const label = `#${i + 1} ${tool} ${shorten(args === undefined ? '(no arguments)' : JSON.stringify(args), 300)}`;
          compareCall(t, { label, a: na, b: nb, deliberate, selftest: SELFTEST, failures });
          for (const p of callProblems) problems.push(`${label}: ${p}`);
        }
        assert.ok(failures.length === 0 && problems.length === 0,
          [...failures, ...problems].join('\n') + `\n(${failures.length} of ${kase.calls.length} calls differ)`);
      });
    }
  });
}
