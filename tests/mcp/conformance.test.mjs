// The official MCP conformance suite (@modelcontextprotocol/conformance CLI)
// against the filesystem MCP URL of a real sandbox. What each scenario sends
// and expects is written down in README.md.
//
// A scenario passes when the CLI exits 0 (no FAILURE check), no check is a
// WARNING (the CLI tolerates those; e.g. a missing Mcp-Session-Id only warns
// in server-sse-multiple-streams) and the checks that carry the verdict are
// there and SUCCESS. Skipped while sandboxd answers the MCP URL with "not
// available in this sandboxd build yet" (SANDBOXD_MCP_REQUIRED=1: fail).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { mcpUnavailableReason, startSandboxd } from './lib/sandboxd.mjs';
import { describeChecks, listServerScenarios, runScenario } from './lib/conformance.mjs';

// scenario -> ids of the checks that must be SUCCESS
const SCENARIOS = {
  'server-initialize': ['server-initialize'],
  ping: ['ping'],
  'tools-list': ['tools-list'],
  'dns-rebinding-protection': ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
  'server-sse-multiple-streams': ['server-accepts-multiple-post-streams'],
};
// Run as well if the installed CLI has it (0.1.16 has no session-lifecycle scenario).
const OPTIONAL_SCENARIOS = ['session-lifecycle', 'server-session-lifecycle'];

describe('MCP conformance suite against a sandbox filesystem URL', () => {
  let sd;
  let url;
  let unavailable = null;
  let listed = [];

  before(async () => {
    listed = await listServerScenarios();
    sd = await startSandboxd();
    const sandbox = await sd.api.acquire(['filesystem']);
    url = sandbox.servers[0].mcp_server_url;
    unavailable = await mcpUnavailableReason(url);
  });
  after(async () => {
    await sd?.stop();
  });

  test('the installed CLI has every scenario run here', () => {
    for (const name of Object.keys(SCENARIOS)) assert.ok(listed.includes(name), `${name} not in: ${listed.join(', ')}`);
  });

  const names = [...Object.keys(SCENARIOS), ...OPTIONAL_SCENARIOS];
  for (const name of names) {
    test(name, async (t) => {
      if (!(name in SCENARIOS) && !listed.includes(name)) return t.skip('not in this conformance version');
      if (unavailable) return t.skip(unavailable);
      const { code, stdout, stderr, checks } = await runScenario(url, name);
      const report = `${describeChecks(checks)}\n--- stdout\n${stdout.slice(-4000)}\n--- stderr\n${stderr.slice(-4000)}`;
      assert.ok(checks.length > 0, `no checks recorded\n${report}`);
      assert.equal(code, 0, `CLI exit code\n${report}`);
      const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      assert.deepEqual(bad, [], `failed or warning checks\n${report}`);
      for (const id of SCENARIOS[name] ?? []) {
        const c = checks.find((x) => x.id === id);
        assert.equal(c?.status, 'SUCCESS', `check ${id}\n${report}`);
      }
    });
  }
});

// The resources and prompts scenarios that apply to a real server: the
// memory server's resource (list, subscribe, unsubscribe) and the arxiv
// server's prompt (list). The others read fixtures only the conformance
// suite's own test server has (test://static-text, test_simple_prompt, …):
// README.md lists them and why.
const FEATURE_SCENARIOS = {
  localmemory: { 'resources-list': ['resources-list'], 'resources-subscribe': ['resources-subscribe'],
    'resources-unsubscribe': ['resources-unsubscribe'], 'server-initialize': ['server-initialize'] },
  arxiv: { 'prompts-list': ['prompts-list'], 'server-initialize': ['server-initialize'] },
};

describe('MCP conformance suite: resources and prompts of the servers that have them', () => {
  let sd;
  const urls = {};
  before(async () => {
    sd = await startSandboxd();
    for (const server of Object.keys(FEATURE_SCENARIOS)) {
      urls[server] = (await sd.api.acquire([server])).servers[0].mcp_server_url;
      await mcpUnavailableReason(urls[server]);
    }
  });
  after(async () => {
    await sd?.stop();
  });

  for (const [server, scenarios] of Object.entries(FEATURE_SCENARIOS)) {
    for (const [name, ids] of Object.entries(scenarios)) {
      test(`${server}: ${name}`, async () => {
        const { code, stdout, stderr, checks } = await runScenario(urls[server], name);
        const report = `${describeChecks(checks)}\n--- stdout\n${stdout.slice(-4000)}\n--- stderr\n${stderr.slice(-4000)}`;
        assert.equal(code, 0, `CLI exit code\n${report}`);
        assert.deepEqual(checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING'), [], report);
        for (const id of ids) assert.equal(checks.find((x) => x.id === id)?.status, 'SUCCESS', `check ${id}\n${report}`);
      });
    }
  }
});
