// The terminal MCP server of a sandbox (cli-mcp-server 0.2.5), driven end to
// end with the official MCP TypeScript SDK against real sandboxd processes:
// acquire ["terminal"], seed /data, connect to the mcp_server_url, list and
// call the tools, assert exact results. Once with upstream's default policy
// (ls, cat, pwd; -l, -a, --help; no shell operators) and once with a
// --server-settings file (every command and flag, shell operators, a 2 s
// timeout). Expected results are upstream's for the same commands (see
// src/servers/terminal/policy_test.cc for the cases and their upstream
// functions); the deliberate differences are marked.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { connectMcp, makeTarGz, mcpUnavailableReason, sleep, startSandboxd, writeTree } from './lib/sandboxd.mjs';
import {
  LISTING, OPERATOR_OFF, SEED_FILES, checkToolList, failed, processesRunning, ran, rawCall, securityRules, viaSdk,
} from './lib/terminal_scenario.mjs';

function seedArchive() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-terminal-seed-'));
  try {
    writeTree(dir, SEED_FILES);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A seeded sandbox with a terminal server on `sd`; returns its MCP URL (or null if MCP is unavailable). */
async function terminalSandbox(sd) {
  const sandbox = await sd.api.acquire(['terminal']);
  assert.equal(sandbox.servers[0].server_name, 'terminal');
  const url = sandbox.servers[0].mcp_server_url;
  assert.equal(new URL(url).pathname, '/terminal/mcp/');
  await sd.api.uploadAndInitialize(sandbox.local_sandbox_id, seedArchive());
  return { sandbox, url, unavailable: await mcpUnavailableReason(url) };
}

/**
 * Runs `command` through the SDK and checks its result against `wire`; then,
 * unless the command changes something (`once`), runs it again over raw HTTP
 * and checks the wire form itself ("error" fields included).
 */
async function expectRun(url, client, command, wire, { once = false } = {}) {
  const result = await client.callTool({ name: 'run_command', arguments: { command } });
  assert.deepEqual(result, viaSdk(wire), `SDK result of ${JSON.stringify(command)}`);
  if (once) return;
  assert.deepEqual(await rawCall(url, client, 'run_command', { command }), { content: wire },
    `wire result of ${JSON.stringify(command)}`);
}

describe('terminal server, upstream default policy', () => {
  let sd;
  let ctx;
  let client;

  before(async () => {
    sd = await startSandboxd();
    ctx = await terminalSandbox(sd);
    if (!ctx.unavailable) client = await connectMcp(ctx.url);
  });
  after(async () => {
    await client?.close();
    await sd?.stop();
  });

  test('initialize and tools/list: cli-mcp-server 0.2.1, the reference schemas', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    assert.deepEqual(client.getServerVersion(), { name: 'cli-mcp-server', version: '0.2.1' });
    const { tools } = await client.listTools();
    checkToolList(tools);
    assert.match(tools[0].description, /with \/data as its working directory/);
    assert.match(tools[0].description, /Commands accepted: cat, ls, pwd\nFlags accepted: --help, -a, -l\n/);
  });

  test('show_security_rules: the default policy', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    const text = securityRules({ commands: 'cat, ls, pwd', flags: '--help, -a, -l', maxLength: 1024, timeout: 30 });
    assert.deepEqual(await client.callTool({ name: 'show_security_rules', arguments: {} }),
      { content: [{ type: 'text', text }] });
  });

  test('run_command: output, stderr and return-code blocks', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    await expectRun(ctx.url, client, 'pwd', ran('/data\n', '', 0));
    await expectRun(ctx.url, client, 'ls', ran(LISTING, '', 0));
    await expectRun(ctx.url, client, 'ls -a', ran(`.\n..\n${LISTING}`, '', 0));
    await expectRun(ctx.url, client, 'cat a.txt ./sub/b.txt', ran('hello\nbee\n', '', 0));
    await expectRun(ctx.url, client, "cat 'dir with space/c.txt'", ran('c\n', '', 0));
    await expectRun(ctx.url, client, 'cat missing', ran('', 'cat: missing: No such file or directory\n', 1));
    // Checked path arguments reach the command as real paths.
    await expectRun(ctx.url, client, 'cat ./missing', ran('', 'cat: /data/missing: No such file or directory\n', 1));
  });

  test('run_command: what the policy refuses', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    const violation = (text) => failed(`Security violation: ${text}`);
    const outside = (arg) => violation(`Path '${arg}' is outside of allowed directory: /data`);
    await expectRun(ctx.url, client, 'echo hi', violation("Command 'echo' is not allowed"));
    await expectRun(ctx.url, client, 'ls -R', violation("Flag '-R' is not allowed"));
    await expectRun(ctx.url, client, 'ls ; pwd', violation(`Shell operator ';${OPERATOR_OFF}`));
    await expectRun(ctx.url, client, 'ls && pwd', violation(`Shell operator '&&${OPERATOR_OFF}`));
    await expectRun(ctx.url, client, 'cat a.txt | cat', violation(`Shell operator '|${OPERATOR_OFF}`));
    await expectRun(ctx.url, client, 'cat a.txt > b', violation(`Shell operator '>${OPERATOR_OFF}`));
    await expectRun(ctx.url, client, 'cat < a.txt', violation(`Shell operator '<${OPERATOR_OFF}`));
    await expectRun(ctx.url, client, 'cat ../etc/passwd', outside('../etc/passwd'));
    await expectRun(ctx.url, client, 'cat /etc/passwd', outside('/etc/passwd'));
    await expectRun(ctx.url, client, 'cat /data2/x', outside('/data2/x')); // deliberate: upstream's prefix test passes it
    await expectRun(ctx.url, client, 'ls ..', outside('..')); // deliberate: upstream lists the parent
    await expectRun(ctx.url, client, `ls ${'a'.repeat(1022)}`, violation('Command exceeds maximum length of 1024'));
    await expectRun(ctx.url, client, '', violation('Empty command'));
    await expectRun(ctx.url, client, 'cat "a.txt', violation('Invalid command format: No closing quotation'));
    // Without operators nothing runs a shell: substitutions and newlines are words.
    await expectRun(ctx.url, client, 'cat $(id)', ran('', "cat: '$(id)': No such file or directory\n", 1));
    await expectRun(ctx.url, client, 'cat `id`', ran('', "cat: '`id`': No such file or directory\n", 1));
    await expectRun(ctx.url, client, 'ls\npwd', ran('', "ls: cannot access 'pwd': No such file or directory\n", 2));
  });

  // The core checks arguments against the schema in the TypeScript SDK's
  // words; upstream's Python SDK says "Input validation error: 'command' is a
  // required property" (a known difference of wording only).
  test('arguments the schema rejects come back as an error result', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    assert.deepEqual(await client.callTool({ name: 'run_command', arguments: {} }), {
      content: [{
        type: 'text',
        text: 'MCP error -32602: Input validation error: Invalid arguments for tool run_command: ' +
          'Invalid input: expected string, received undefined at command',
      }],
      isError: true,
    });
  });
});

describe('terminal server, policy from --server-settings', () => {
  let sd;
  let ctx;
  let client;
  let settingsDir;

  before(async () => {
    settingsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-terminal-settings-'));
    const file = path.join(settingsDir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({
      terminal: {
        allowed_commands: 'all', allowed_flags: 'all', allow_shell_operators: true, command_timeout: 2,
        max_command_length: 300,
      },
    }));
    sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
    ctx = await terminalSandbox(sd);
    if (!ctx.unavailable) client = await connectMcp(ctx.url);
  });
  after(async () => {
    await client?.close();
    await sd?.stop();
    fs.rmSync(settingsDir, { recursive: true, force: true });
  });

  test('the description and show_security_rules follow the settings', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    const { tools } = await client.listTools();
    checkToolList(tools);
    assert.match(tools[0].description, /Commands accepted: any\nFlags accepted: any\n/);
    assert.match(tools[0].description, /accepted; a line that uses them runs under \/bin\/sh\.$/);
    const text = securityRules({
      commands: 'All commands allowed', flags: 'All flags allowed', maxLength: 300, timeout: 2,
    });
    assert.deepEqual(await client.callTool({ name: 'show_security_rules', arguments: {} }),
      { content: [{ type: 'text', text }] });
  });

  test('shell operators: the line runs under /bin/sh, each part checked', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    await expectRun(ctx.url, client, 'echo a && echo b', ran('a\nb\n', '', 0));
    await expectRun(ctx.url, client, 'echo out; echo err >&2; exit 3', ran('out\n', 'err\n', 3));
    await expectRun(ctx.url, client, 'cat a.txt | tr a-z A-Z', ran('HELLO\n', '', 0));
    await expectRun(ctx.url, client, 'echo made > made.txt && cat made.txt', ran('made\n', '', 0), { once: true });
    await expectRun(ctx.url, client, 'printf "a\\r\\nb\\rc"', ran('a\nb\nc', '', 0));
    await expectRun(ctx.url, client, 'ls ; cat /etc/passwd',
      failed("Security violation: Invalid command part 'cat /etc/passwd': Path '/etc/passwd' is outside of allowed directory: /data"));
    await expectRun(ctx.url, client, 'nosuchcmd',
      failed("Error: Command execution failed: [Errno 2] No such file or directory: 'nosuchcmd'"));
    await expectRun(ctx.url, client, "sh -c 'kill -9 $$'", ran('', '', -9));
    await expectRun(ctx.url, client, `echo ${'x'.repeat(296)}`, failed('Security violation: Command exceeds maximum length of 300'));
  });

  test('a link made by one call is resolved by the next', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    await expectRun(ctx.url, client, "sh -c 'ln -s /etc out'", ran('', '', 0), { once: true });
    await expectRun(ctx.url, client, 'cat out/passwd',
      failed("Security violation: Path 'out/passwd' is outside of allowed directory: /data"));
    await expectRun(ctx.url, client, 'ln -s sub in && cat in/b.txt', ran('bee\n', '', 0), { once: true });
  });

  test('a timeout kills every process the command started', async (t) => {
    if (ctx.unavailable) return t.skip(ctx.unavailable);
    const started = Date.now();
    await expectRun(ctx.url, client, 'sleep 31.75 & sleep 32.75 ; true',
      failed('Error: Command timed out after 2 seconds'), { once: true });
    const took = Date.now() - started;
    assert.ok(took >= 2000 && took < 6000, `the call took ${took} ms`);
    const deadline = Date.now() + 5000;
    for (;;) {
      const left = [...processesRunning(['sleep', '31.75']), ...processesRunning(['sleep', '32.75'])];
      if (left.length === 0) break;
      assert.ok(Date.now() < deadline, `still running after the timeout: ${left.join(', ')}`);
      await sleep(50);
    }
  });
});

describe('terminal server settings are checked at startup', () => {
  test('an unknown key stops sandboxd', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-terminal-bad-'));
    try {
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, JSON.stringify({ terminal: { allowed_command: 'all' } }));
      await assert.rejects(startSandboxd({ extraArgs: ['--server-settings', file] }),
        /terminal: unknown setting 'allowed_command'/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
