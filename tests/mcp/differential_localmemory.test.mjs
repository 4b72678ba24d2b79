// Differential test of the localmemory MCP server: sandboxd's native server
// against upstream @modelcontextprotocol/server-memory 2026.8.31, with the
// cases of lib/localmemory_corpus.mjs (suite in
// lib/localmemory_differential.mjs; the variants' runs are
// differential_localmemory_*.test.mjs).
//
// SANDBOXD_DIFF_SELFTEST=1 runs upstream against a second upstream instead of
// sandboxd (checks the harness: everything but the deliberate cases must pass).

import { runLocalmemoryDifferential } from './lib/localmemory_differential.mjs';

runLocalmemoryDifferential();
