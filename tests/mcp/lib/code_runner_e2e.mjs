// Helpers of e2e_code_runner.test.mjs: one run-code call with its text
// normalised, the reference tool list, and the process counts of a
// sandboxd instance's jails (cgroup v1 pids hierarchy, or v2).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { REFERENCE_DIR, cgroupDirs } from './sandboxd.mjs';

export const TMP_RE = /\/tmp\/code-runner-[A-Za-z0-9]{6}/g;

/** {content:[{type:'text', text}]} (+ isError). */
export const result = (text, isError) =>
  (isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] });

/** run-code through `client`; the result with the call's directory as <TMP>. */
export async function run(client, languageId, code, timeout = 120_000) {
  const r = await client.callTool({ name: 'run-code', arguments: { code, languageId } }, undefined, { timeout });
  return { ...r, content: r.content.map((b) => ({ ...b, text: b.text.replace(TMP_RE, '<TMP>') })) };
}

/** tools/list must be the reference's one tool with its exact inputSchema. */
export function checkToolList(tools) {
  const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'code-runner.json'), 'utf8'));
  assert.deepEqual(tools.map((t) => t.name), ref.tools.map((t) => t.name));
  assert.equal(JSON.stringify(tools[0].inputSchema), JSON.stringify(ref.tools[0].inputSchema));
  assert.equal(tools[0].outputSchema, undefined);
  assert.ok(tools[0].description.length > 20);
  return ref;
}

/** The pids cgroups of the instance's jails: {dir: process count}. */
export function jailProcessCounts(sd) {
  const counts = {};
  for (const dir of cgroupDirs(sd.cgroupParent)) {
    if (path.basename(dir) === sd.cgroupParent) continue;
    const file = path.join(dir, 'pids.current');
    if (!fs.existsSync(file)) continue;
    counts[dir] = Number(fs.readFileSync(file, 'utf8').trim());
  }
  return counts;
}
