// Differential test of filesystem@2025.7.1 (Toolathlon's pin): sandboxd with
// --server-settings {"filesystem": {"variant": "2025.7.1"}} against upstream
// @modelcontextprotocol/server-filesystem 2025.7.1 (npm alias
// server-filesystem-2025.7.1), with today's corpus (lib/differential_corpus.mjs)
// run unchanged: calls to the tools 2025.7.1 lacks (read_text_file,
// read_media_file) must fail the same way on both sides.
//
// 2025.7.1's path validation (exact names only, a missing path taken
// below an existing parent and printed as typed, "C:\\x" an ordinary
// relative name, a dangling link a missing name that writes replace) and
// its per-chunk head/tail decoding are the variant's own
// (servers/filesystem/resolver.h, file_ops.h) and compared like everything
// else: no call differs deliberately, and the trees left behind are equal.

import { runFilesystemDifferential } from './lib/filesystem_differential.mjs';

runFilesystemDifferential({
  variant: '2025.7.1',
  upstreamPackage: 'server-filesystem-2025.7.1',
  deliberateOf: () => null,
  treeIgnore: [],
});
