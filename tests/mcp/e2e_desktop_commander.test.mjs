// The desktop-commander MCP server of a real sandbox, driven end to end with
// the official MCP TypeScript SDK: acquire through the REST API, seed the
// workspace, connect over Streamable HTTP, call all 21 tools (exact texts),
// check the jail's limits from inside (paths, blocked commands, the
// process table, kill_process on the agent), that a runaway `while true`
// started by start_process dies with the sandbox (no process left on the
// host), and that --server-settings reaches the server's configuration.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, sleep, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';

const SEED = {
  'hello.txt': 'hello world\nsecond line\nthird line\n',
  'code/app.js': 'function greet(name) {\n  return "hello " + name;\n}\n',
  'edit/one.txt': 'alpha\nbeta\n',
};

function seedArchive() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-dc-seed-'));
  try {
    writeTree(dir, SEED);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Host processes whose command line contains `marker`. */
function hostProcessesWith(marker) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(marker)) found.push(`${entry}: ${cmdline}`);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

const text = (r) => r.content[0].text;
const pidOf = (r) => Number(/^Process started with PID (\d+) /.exec(text(r))[1]);

async function call(client, name, args = {}) {
  return client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
}

describe('desktop-commander server in a sandbox (e2e)', () => {
  let sd = null;
  let client = null;
  let sandboxId = null;
  let unavailable = null;

  before(async () => {
    sd = await startSandboxd();
    const sandbox = await sd.api.acquire(['desktop-commander']);
    sandboxId = sandbox.local_sandbox_id;
    await sd.api.uploadAndInitialize(sandboxId, seedArchive());
    const url = sandbox.servers[0].mcp_server_url;
    unavailable = await mcpUnavailableReason(url);
    if (!unavailable) client = await connectMcp(url);
  });

  after(async () => {
    await client?.close().catch(() => {});
    if (sandboxId) await sd?.api.release(sandboxId).catch(() => {});
    await sd?.stop();
  });

  test('tools/list: the 21 upstream tools', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(names, [
      'get_config', 'set_config_value', 'read_file', 'read_multiple_files', 'write_file', 'create_directory',
      'list_directory', 'move_file', 'search_files', 'search_code', 'get_file_info', 'edit_block', 'start_process',
      'read_process_output', 'interact_with_process', 'force_terminate', 'list_sessions', 'list_processes',
      'kill_process', 'get_usage_stats', 'give_feedback_to_desktop_commander',
    ]);
    assert.deepEqual(client.getServerVersion(), { name: 'desktop-commander', version: '0.2.7' });
  });

  test('file tools on /data', async (t) => {
    if (unavailable) return t.skip(unavailable);
    assert.equal(text(await call(client, 'read_file', { path: '/data/hello.txt', offset: 1, length: 1 })),
      '[Reading 1 lines from line 1 (total: 4 lines, 2 remaining)]\n\nsecond line');
    assert.equal(text(await call(client, 'create_directory', { path: '/data/out/deep' })),
      'Successfully created directory /data/out/deep');
    assert.equal(text(await call(client, 'write_file', { path: '/data/out/a.txt', content: 'one\ntwo' })),
      'Successfully wrote to /data/out/a.txt (2 lines) ');
    assert.equal(text(await call(client, 'write_file', { path: '/data/out/a.txt', content: '\nthree', mode: 'append' })),
      'Successfully appended to /data/out/a.txt (2 lines) ');
    const many = await call(client, 'read_multiple_files', { paths: ['/data/out/a.txt', '/etc/passwd'] });
    assert.equal(many.content[0].text, '/data/out/a.txt: text/plain (text)\n/etc/passwd: Error - Path not allowed: '
      + '/etc/passwd. Must be within one of these directories: /data');
    assert.equal(many.content[1].text,
      '\n--- /data/out/a.txt contents: ---\n[Reading 3 lines from start (total: 3 lines, 0 remaining)]\n\none\ntwo\nthree');
    assert.equal(text(await call(client, 'list_directory', { path: '/data/out' })), '[FILE] a.txt\n[DIR] deep');
    assert.equal(text(await call(client, 'move_file', { source: '/data/out/a.txt', destination: '/data/out/b.txt' })),
      'Successfully moved /data/out/a.txt to /data/out/b.txt');
    assert.match(text(await call(client, 'get_file_info', { path: '/data/out/b.txt' })),
      /^size: 13\ncreated: .+\nmodified: .+\naccessed: .+\nisDirectory: false\nisFile: true\npermissions: 644\nlineCount: 3\nlastLine: 2\nappendPosition: 3$/);
    assert.equal(text(await call(client, 'search_files', { path: '/data', pattern: 'B.TXT' })), '/data/out/b.txt');
    assert.equal(text(await call(client, 'search_code', { path: '/data/code', pattern: 'HELLO' })),
      '/data/code/app.js:\n  2: hello');
    assert.equal(text(await call(client, 'edit_block', { file_path: '/data/edit/one.txt', old_string: 'beta', new_string: 'BETA' })),
      'Successfully applied 1 edit to /data/edit/one.txt');
    // A near miss: upstream's report, and its log in the sandbox's home.
    assert.match(text(await call(client, 'edit_block', { file_path: '/data/edit/one.txt', old_string: 'alphx', new_string: 'x' })),
      /^Exact match not found, but found a similar text with 80% similarity \(found in \d+\.\d\dms\):\n\nDifferences:\nalph\{-x-\}\{\+a\+\}\n\n.*\nCheck log: \/root\/\.claude-server-commander-logs\/fuzzy-search\.log$/s);
    const log = await call(client, 'start_process', { command: 'cut -f 2,3 /root/.claude-server-commander-logs/fuzzy-search.log', timeout_ms: 3000 });
    assert.equal(text(log), `Process started with PID ${pidOf(log)} (shell: /bin/sh)\nInitial output:\nsearchText\tfoundText\nalphx\talpha\n`);
    const files = readTarGzFiles(await sd.api.dump(sandboxId));
    assert.equal(files['out/b.txt'].toString(), 'one\ntwo\nthree');
    assert.equal(files['edit/one.txt'].toString(), 'alpha\nBETA\n');
  });

  test('the jail is the limit: paths, links, blocked commands, the agent', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const refused = (p) => `Error: Path not allowed: ${p}. Must be within one of these directories: /data`;
    for (const p of ['/etc/passwd', '/data/../etc/passwd', '/data2/x', '~/x', '/proc/1/environ']) {
      const r = await call(client, 'read_file', { path: p });
      assert.equal(r.isError, true);
      assert.equal(text(r), refused(p));
    }
    await call(client, 'start_process', { command: 'ln -s /etc/passwd /data/pw; ln -s /proc/1 /data/agent', timeout_ms: 2000 });
    assert.equal(text(await call(client, 'read_file', { path: '/data/pw' })), refused('/data/pw'));
    assert.equal(text(await call(client, 'list_directory', { path: '/data/agent' })), refused('/data/agent'));
    assert.equal(text(await call(client, 'write_file', { path: '/data/agent/oom_score_adj', content: '1000' })),
      refused('/data/agent/oom_score_adj'));
    assert.equal(text(await call(client, 'start_process', { command: 'echo x | sudo tee /etc/x', timeout_ms: 1000 })),
      'Error: Command not allowed: echo x | sudo tee /etc/x');
    // The agent is pid 1 of the jail: it is never a target.
    assert.equal(text(await call(client, 'kill_process', { pid: 1 })), 'Error: Failed to kill process: kill EPERM');
    const ps = text(await call(client, 'list_processes'));
    assert.match(ps, /^PID: 1, Command: \S+, CPU: [0-9.]+, Memory: [0-9.]+$/m);
    // Still serving after all that.
    assert.equal(text(await call(client, 'read_file', { path: '/data/hello.txt', length: 1 })),
      '[Reading 1 lines from start (total: 4 lines, 3 remaining)]\n\nhello world');
  });

  test('processes: REPL, output, interaction, termination', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const started = await call(client, 'start_process', { command: 'echo ready; sleep 0.3', timeout_ms: 3000 });
    assert.equal(text(started), `Process started with PID ${pidOf(started)} (shell: /bin/sh)\nInitial output:\nready\n`);
    const cat = await call(client, 'start_process', { command: 'cat', timeout_ms: 300 });
    const pid = pidOf(cat);
    assert.equal(text(cat), `Process started with PID ${pid} (shell: /bin/sh)\nInitial output:\n\n`
      + '\u23F3 Process is running. Use read_process_output to get more output.');
    assert.equal(text(await call(client, 'list_sessions')), `PID: ${pid}, Blocked: true, Runtime: 0s`);
    assert.equal(text(await call(client, 'interact_with_process', { pid, input: 'ping', wait_for_prompt: false })),
      `\u2705 Input sent to process ${pid}. Use read_process_output to get the response.`);
    await sleep(300);
    assert.equal(text(await call(client, 'read_process_output', { pid, timeout_ms: 1000 })), 'ping\n');
    assert.equal(text(await call(client, 'force_terminate', { pid })), `Successfully initiated termination of session ${pid}`);
    await sleep(1500);
    assert.equal(text(await call(client, 'list_sessions')), 'No active sessions');
    const repl = await call(client, 'start_process', { command: '/usr/bin/python3 -i -q', timeout_ms: 5000 });
    const rp = pidOf(repl);
    const waiting = `\u{1F504} Process ${rp} is waiting for input (detected: ">>>")`;
    assert.equal(text(repl), `Process started with PID ${rp} (shell: /bin/sh)\nInitial output:\n>>> \n${waiting}`);
    assert.equal(text(await call(client, 'interact_with_process', { pid: rp, input: '6*7' })),
      `\u2705 Input executed in process ${rp}:\n\n\u{1F4E4} Output:\n42\n\n\n${waiting}`);
    await call(client, 'force_terminate', { pid: rp });
  });

  test('configuration, usage and feedback', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const config = text(await call(client, 'get_config'));
    assert.match(config, /^Current configuration:\n\{\n  "blockedCommands": \[\n    "mkfs",/);
    assert.match(config, /\n  "allowedDirectories": \[\n    "\/data"\n  \],\n  "telemetryEnabled": false,\n/);
    const set = text(await call(client, 'set_config_value', { key: 'fileWriteLineLimit', value: 1 }));
    assert.match(set, /^Successfully set fileWriteLineLimit to 1\n\nUpdated configuration:\n\{\n/);
    assert.equal(text(await call(client, 'write_file', { path: '/data/two.txt', content: 'a\nb' })),
      'Successfully wrote to /data/two.txt (2 lines) \u2705 File written successfully! (2 lines)\n            \n'
      + '\u{1F4A1} Performance tip: For optimal speed, consider chunking files into \u226430 line pieces in future operations.');
    assert.match(text(await call(client, 'get_usage_stats')), /^\u{1F4CA} \*\*Usage Summary\*\*\n\u2022 Total calls: \d+ \(\d+ successful, \d+ failed\)\n/u);
    assert.match(text(await call(client, 'give_feedback_to_desktop_commander')),
      /^\u26A0\uFE0F \*\*Couldn't open browser automatically\*\*\n\nPlease copy and paste this URL into your browser to access the feedback form:\n\nhttps:\/\/tally\.so\/r\/mYB6av\?tool_call_count=\d+&days_using=0&platform=linux&client_id=unknown\n\n/u);
  });

  test('a runaway process dies when the sandbox is released', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const marker = `dc-runaway-${process.pid}-${Date.now()}`;
    const r = await call(client, 'start_process', { command: `while true; do :; done # ${marker}`, timeout_ms: 300 });
    assert.match(text(r), /Process is running/);
    let seen = [];
    for (let i = 0; i < 50 && seen.length === 0; i++) {
      seen = hostProcessesWith(marker);
      if (seen.length === 0) await sleep(100);
    }
    assert.ok(seen.length > 0, 'the loop should be visible on the host while the sandbox lives');
    await client.close();
    client = null;
    await sd.api.release(sandboxId);
    sandboxId = null;
    let left = hostProcessesWith(marker);
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await sleep(100);
      left = hostProcessesWith(marker);
    }
    assert.deepEqual(left, [], 'processes left on the host after release');
  });
});

describe('desktop-commander server settings (e2e)', () => {
  test('--server-settings reaches the configuration', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-dc-settings-'));
    const settings = path.join(dir, 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({
      'desktop-commander': { blockedCommands: ['ls', 'cat'], fileWriteLineLimit: 3, defaultShell: '/bin/bash' },
    }));
    const sd = await startSandboxd({ extraArgs: ['--server-settings', settings] });
    let id = null;
    let c = null;
    try {
      const sandbox = await sd.api.acquire(['desktop-commander']);
      id = sandbox.local_sandbox_id;
      const url = sandbox.servers[0].mcp_server_url;
      const why = await mcpUnavailableReason(url);
      if (why) return t.skip(why);
      c = await connectMcp(url);
      const config = text(await call(c, 'get_config'));
      assert.match(config, /^Current configuration:\n\{\n  "blockedCommands": \[\n    "ls",\n    "cat"\n  \],\n  "defaultShell": "\/bin\/bash",/);
      assert.match(config, /\n  "fileWriteLineLimit": 3,\n/);
      assert.equal(text(await call(c, 'start_process', { command: 'ls /data', timeout_ms: 1000 })),
        'Error: Command not allowed: ls /data');
      const r = await call(c, 'start_process', { command: 'echo $0; sleep 0.3', timeout_ms: 2000 });
      assert.equal(text(r), `Process started with PID ${pidOf(r)} (shell: /bin/bash)\nInitial output:\n/bin/bash\n`);
    } finally {
      await c?.close().catch(() => {});
      if (id) await sd.api.release(id).catch(() => {});
      await sd.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
