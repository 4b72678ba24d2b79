// Differential test of the desktop-commander MCP server: sandboxd's native
// server (workspace /data, MCP Streamable HTTP through the gateway) against
// upstream @wonderwhy-er/desktop-commander 0.2.10 from npm (workspace = an
// identical copy of the seed tree on the host, stdio, no network; see
// lib/desktop_commander_upstream.mjs). The same calls, in the same order,
// go to both; every CallToolResult must be identical after normalising
//   (a) paths: upstream runs in <tmp>/upstream/{data,root}, so "<tmp>/upstream"
//       is removed from its results;
//   (b) PIDs: each side's process ids become <pid1>, <pid2>, … in order of
//       appearance;
//   (c) times: get_file_info's dates, edit_block's "found in 1.23ms", the
//       runtimes of list_sessions, usageStats' firstUsed/lastUsed;
//   (d) the version (0.2.7 here, 0.2.10 there) and what 0.2.9 added to
//       get_config's systemInfo (docker, " (Docker)" in platformName,
//       examplePaths.accessible);
//   (e) upstream's usage counters, by one success turned failure for each
//       deliberate difference where sandboxd refuses what upstream does;
//   (f) search_code's file order, which is whatever ripgrep's threads finish
//       first upstream (sandboxd sorts by path): file blocks are sorted.
// Afterwards both workspaces must hold the same files with the same
// contents.
//
// The input schemas of all 21 tools are identical in 0.2.7 and 0.2.10 (the
// tools/list case checks ours against 0.2.10's); the behaviours that changed
// between the two are left to the unit tests' golden cases.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';

import { connectMcp, makeTarGz, mcpUnavailableReason, startSandboxd, writeTree } from './lib/sandboxd.mjs';
import { prepareUpstreamTree, startUpstream } from './lib/desktop_commander_upstream.mjs';
import { CASES, PID, ROOT, SEED_FILES, SEED_MTIME, TREE_IGNORE } from './lib/desktop_commander_corpus.mjs';
import { extractTarGz, ready as readyFor, snapshotTree, teardown } from './lib/differential.mjs';

const JS_DATE_RE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \(.+\)$/;

function substitute(value, side) {
  if (typeof value === 'string') {
    if (value === PID) return side.pid;
    return value.split(ROOT).join(side.root);
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, side));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, side)]));
  }
  return value;
}

async function invoke(side, tool, args) {
  try {
    const result = await side.client.callTool({ name: tool, arguments: substitute(args, side) }, undefined,
      { timeout: 120_000 });
    if (tool === 'start_process' && !result.isError) {
      const m = /^Process started with PID (\d+) /.exec(result.content?.[0]?.text ?? '');
      if (m) side.pid = Number(m[1]);
    }
    return { result };
  } catch (err) {
    return { thrown: `${err.constructor?.name}: ${err.message}`, code: err.code };
  }
}

/** The JSON after "<prefix>" in a text, normalised by `fix`, printed back as upstream prints it. */
function fixJsonAfter(text, prefix, fix) {
  const at = text.indexOf(prefix);
  if (at < 0) return text;
  const json = JSON.parse(text.slice(at + prefix.length));
  fix(json);
  return text.slice(0, at + prefix.length) + JSON.stringify(json, null, 2);
}

function fixConfig(config, side) {
  if (config.version) config.version = '<version>';
  const stats = config.usageStats;
  if (stats) {
    for (const k of ['firstUsed', 'lastUsed']) if (k in stats) stats[k] = '<time>';
    stats.successfulCalls -= side.shifted;
    stats.failedCalls += side.shifted;
  }
  const info = config.systemInfo;
  if (info) {
    // 0.2.9 taught getSystemInfo to detect Docker (this host looks like one).
    delete info.docker;
    if (typeof info.platformName === 'string') info.platformName = info.platformName.replace(/ \(Docker\)$/, '');
    if (info.examplePaths) delete info.examplePaths.accessible;
  }
}

function normaliseText(side, tool, text, problems) {
  // PIDs, in order of appearance.
  text = text.replace(/\b(PID:? |process |session |Process )(\d+)\b/g, (all, word, num) => {
    if (!side.pids.has(num)) side.pids.set(num, `<pid${side.pids.size + 1}>`);
    return word + side.pids.get(num);
  });
  text = text.replace(/(found in|completed in) \d+\.\d\dms/g, '$1 <ms>ms');
  text = text.replace(/Runtime: \d+(\.\d+)?s/g, 'Runtime: <s>s');
  if (tool === 'get_config') text = fixJsonAfter(text, 'Current configuration:\n', (c) => fixConfig(c, side));
  if (tool === 'set_config_value') text = fixJsonAfter(text, 'Updated configuration:\n', (c) => fixConfig(c, side));
  if (tool === 'get_usage_stats' && side.shifted) {
    const m = /Total calls: (\d+) \((\d+) successful, (\d+) failed\)\n• Success rate: \d+%/.exec(text);
    if (m) {
      const [total, ok, failed] = [Number(m[1]), Number(m[2]) - side.shifted, Number(m[3]) + side.shifted];
      text = text.replace(m[0], `Total calls: ${total} (${ok} successful, ${failed} failed)\n• Success rate: ${Math.round((ok / total) * 100)}%`);
    }
  }
  if (tool === 'get_file_info') {
    text = text.split('\n').map((line) => {
      const m = /^(created|modified|accessed): (.*)$/.exec(line);
      if (!m) return line;
      if (!JS_DATE_RE.test(m[2])) problems.push(`get_file_info ${m[1]}: not a JS Date string: ${m[2]}`);
      return `${m[1]}: ${Date.parse(m[2]) === SEED_MTIME * 1000 && m[1] === 'modified' ? '<seeded>' : '<date>'}`;
    }).join('\n');
  }
  if (tool === 'search_code' && text.startsWith('/')) {
    text = text.split('\n\n').sort().join('\n\n');
  }
  return text;
}

function normalise(side, tool, outcome, problems) {
  let json = JSON.stringify(outcome);
  if (side.prefix) json = json.split(side.prefix).join('');
  const out = JSON.parse(json);
  for (const block of out.result?.content ?? []) {
    if (block?.type === 'text' && typeof block.text === 'string') block.text = normaliseText(side, tool, block.text, problems);
  }
  return out;
}

function describeDifference(a, b) {
  return `    ours:     ${JSON.stringify(a).slice(0, 3000)}\n    upstream: ${JSON.stringify(b).slice(0, 3000)}`;
}

describe('desktop-commander: sandboxd vs upstream 0.2.10 (differential)', () => {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-dc-diff-')));
  // shifted: calls sandboxd deliberately failed where upstream succeeded;
  // upstream's usage counters are shifted by as many from success to failure.
  const ours = { root: '/data', prefix: '', client: null, pid: 0, pids: new Map(), shifted: 0 };
  const upstream = { root: null, prefix: null, client: null, pid: 0, pids: new Map(), shifted: 0 };
  let sd = null;
  let sandboxId = null;
  let unavailable = null;
  let setupError = null;

  before(async () => {
    try {
      const seed = path.join(tmp, 'seed');
      writeTree(seed, SEED_FILES, SEED_MTIME);
      const tarGz = makeTarGz(seed);
      upstream.prefix = path.join(tmp, 'upstream');
      upstream.root = path.join(upstream.prefix, 'data');
      extractTarGz(tarGz, upstream.root);
      const home = path.join(upstream.prefix, 'root');
      fs.mkdirSync(home);
      const entry = prepareUpstreamTree(path.join(tmp, 'upstream-package'));
      upstream.client = await startUpstream({ entry, home, workspace: upstream.root });

      sd = await startSandboxd();
      const sandbox = await sd.api.acquire(['desktop-commander']);
      sandboxId = sandbox.local_sandbox_id;
      await sd.api.uploadAndInitialize(sandboxId, tarGz);
      const url = sandbox.servers[0].mcp_server_url;
      unavailable = await mcpUnavailableReason(url);
      if (!unavailable) ours.client = await connectMcp(url, { clientInfo: { name: 'unknown', version: 'unknown' } });
    } catch (err) {
      setupError = err;
    }
  });

  after(() => teardown({ clients: [ours.client, upstream.client], sd, sandboxId, tmp }));

  const ready = (t) => readyFor(t, setupError, unavailable);

  for (const kase of CASES) {
    test(kase.name, async (t) => {
      if (!ready(t)) return;
      if (kase.special === 'tools/list') {
        const view = (tools) => tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema }));
        const [a, b] = await Promise.all([ours.client.listTools(), upstream.client.listTools()]);
        assert.deepEqual(view(a.tools), view(b.tools));
        return;
      }
      if (kase.special === 'tree') {
        const dump = path.join(tmp, 'dump');
        extractTarGz(await sd.api.dump(sandboxId), dump);
        const [a, b] = [snapshotTree(dump), snapshotTree(upstream.root)];
        for (const rel of TREE_IGNORE) {
          delete a[rel];
          delete b[rel];
        }
        const diffs = [];
        for (const rel of new Set([...Object.keys(a), ...Object.keys(b)])) {
          const [x, y] = [a[rel], b[rel]];
          if (!x || !y) diffs.push(`${rel}: only in ${x ? 'ours' : 'upstream'}`);
          else if (x.type !== y.type) diffs.push(`${rel}: ${x.type} vs ${y.type}`);
          else if (x.type === 'file' && !x.data.equals(y.data)) diffs.push(`${rel}: contents differ`);
        }
        assert.ok(diffs.length === 0, `the workspaces differ:\n${diffs.sort().join('\n')}`);
        return;
      }
      const failures = [];
      const problems = [];
      for (const [i, { tool, args, deliberate }] of kase.calls.entries()) {
        // At the same time: a process started by one call must be as old on
        // both sides when the next call looks at it.
        const [a, b] = await Promise.all([invoke(ours, tool, args), invoke(upstream, tool, args)]);
        const na = normalise(ours, tool, a, problems);
        const nb = normalise(upstream, tool, b, problems);
        const label = `#${i + 1} ${tool} ${JSON.stringify(args).slice(0, 300)}`;
        if (process.env.SANDBOXD_DIFF_DUMP) {
          fs.appendFileSync(process.env.SANDBOXD_DIFF_DUMP, `${label}\n  ours:     ${JSON.stringify(na)}\n  upstream: ${JSON.stringify(nb)}\n`);
        }
        if (deliberate) {
          if (a.result?.isError && !b.result?.isError) upstream.shifted += 1;
          try {
            deliberate.check(na, nb);
            t.diagnostic(`${label}: deliberate difference: ${deliberate.why}`);
          } catch (err) {
            failures.push(`${label} (deliberate: ${deliberate.why})\n    ${err.message}`);
          }
        } else if (!isDeepStrictEqual(na, nb)) {
          failures.push(`${label}\n${describeDifference(na, nb)}`);
        }
      }
      assert.ok(failures.length === 0 && problems.length === 0,
        [...failures, ...problems].join('\n') + `\n(${failures.length} of ${kase.calls.length} calls differ)`);
    });
  }
});
