// Differential test of filesystem@2025.7.1 (Toolathlon's pin): sandboxd with
// --server-settings {"filesystem": {"variant": "2025.7.1"}} against upstream
// @modelcontextprotocol/server-filesystem 2025.7.1 (npm alias
// server-filesystem-2025.7.1), with today's corpus (lib/differential_corpus.mjs)
// run unchanged: calls to the tools 2025.7.1 lacks (read_text_file,
// read_media_file) must fail the same way on both sides.

import { runFilesystemDifferential } from './lib/filesystem_differential.mjs';

runFilesystemDifferential({ variant: '2025.7.1', upstreamPackage: 'server-filesystem-2025.7.1', deliberateOf: () => null });
