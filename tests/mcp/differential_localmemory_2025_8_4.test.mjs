// Differential test of localmemory@2025.8.4 (MCP-Atlas' pin): sandboxd with
// --server-settings {"localmemory": {"variant": "2025.8.4"}} against upstream
// @modelcontextprotocol/server-memory 2025.8.4 and 2025.4.25 (Toolathlon's
// pin; npm aliases server-memory-2025.8.4 and server-memory-2025.4.25), with
// today's corpus (lib/localmemory_corpus.mjs) run unchanged.

import { runLocalmemoryDifferential } from './lib/localmemory_differential.mjs';

for (const upstreamPackage of ['server-memory-2025.8.4', 'server-memory-2025.4.25']) {
  runLocalmemoryDifferential({
    variant: '2025.8.4', upstreamPackage, deliberateOf: () => null, fileOf: () => null, resources: false,
  });
}
