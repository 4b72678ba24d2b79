// Differential test of filesystem@2025.7.1 (Toolathlon's pin): sandboxd with
// --server-settings {"filesystem": {"variant": "2025.7.1"}} against upstream
// @modelcontextprotocol/server-filesystem 2025.7.1 (npm alias
// server-filesystem-2025.7.1), with today's corpus (lib/differential_corpus.mjs)
// run unchanged: calls to the tools 2025.7.1 lacks (read_text_file,
// read_media_file) must fail the same way on both sides.
//
// 2025.7.1's path validation (exact names only, a missing path taken
// below an existing parent and printed as typed, "C:\\x" an ordinary
// relative name, a dangling link read as a missing file) and its per-chunk
// head/tail decoding are the variant's own (servers/filesystem/resolver.h,
// file_ops.h) and compared like everything else. DELIBERATE below is what
// still differs, and checks what each side does:
//   - writing to a dangling symbolic link: 2025.7.1 replaced the link by a
//     file; ours refuses it, as today's version does (README).

import assert from 'node:assert/strict';

import { runFilesystemDifferential } from './lib/filesystem_differential.mjs';

const text = (outcome) => outcome.result?.content?.[0]?.text;
const ok = (outcome, side) => {
  assert.ok(outcome.result && !outcome.result.isError, `${side} succeeds: ${JSON.stringify(outcome)}`);
  return text(outcome);
};
const error = (outcome, side, start) => {
  assert.equal(outcome.result?.isError, true, `${side} fails: ${JSON.stringify(outcome)}`);
  assert.ok(text(outcome).startsWith(start), `${side}: ${text(outcome)}`);
};

const DANGLING = 'ours refuses to write to a dangling symbolic link; 2025.7.1 replaced the link by a file';
const DANGLING_TEXT = 'Error: Parent directory does not exist: /data/links';

/** Per case name, per call number: the deliberate difference. */
const DELIBERATE = {
  'symlinks: dangling and looping links are errors': {
    5: { why: DANGLING, check: (a, b) => { error(a, 'ours', DANGLING_TEXT); assert.equal(ok(b, 'upstream'), 'Successfully wrote to /data/links/dangling'); } },
  },
};

runFilesystemDifferential({
  variant: '2025.7.1',
  upstreamPackage: 'server-filesystem-2025.7.1',
  deliberateOf: (kase, i) => DELIBERATE[kase.name]?.[i + 1] ?? null,
  // What that difference leaves: links/dangling (a file upstream, still the link here).
  treeIgnore: ['links/dangling'],
});
