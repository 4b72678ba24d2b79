// Differential test of the filesystem MCP server: sandboxd's native server
// against upstream @modelcontextprotocol/server-filesystem 2026.8.31, with the
// corpus of lib/differential_corpus.mjs (suite and normalisation in
// lib/filesystem_differential.mjs; the variants' runs are
// differential_filesystem_*.test.mjs).
//
// SANDBOXD_DIFF_SELFTEST=1 runs upstream against a second upstream on another
// copy instead of sandboxd (checks the normalisation: everything must pass).

import { runFilesystemDifferential } from './lib/filesystem_differential.mjs';

runFilesystemDifferential();
