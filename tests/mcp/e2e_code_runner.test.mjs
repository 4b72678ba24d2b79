// The code-runner MCP server of a sandbox, end to end with the official MCP
// TypeScript SDK over Streamable HTTP: tools/list, every interpreter the
// jail has (python, javascript, shellscript, perl) with exact results, the
// workspace (/data) as working directory, code files under the sandbox's own
// /tmp and gone afterwards, concurrency; the deployment settings (timeout,
// output bound, command override, a bad setting refused at start), a full
// /tmp; and a
// fork bomb contained by the sandbox's process limit.

import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, sleep, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';
import { checkToolList, jailProcessCounts, result, run } from './lib/code_runner_e2e.mjs';

/** A sandboxd with `settings` as its --server-settings file (null: none). */
async function startWith(settings, extraArgs = []) {
  if (!settings) return { sd: await startSandboxd({ extraArgs }), cleanup: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-cr-settings-'));
  const file = path.join(dir, 'settings.json');
  fs.writeFileSync(file, JSON.stringify(settings));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    return { sd: await startSandboxd({ extraArgs: ['--server-settings', file, ...extraArgs] }), cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

async function acquire(sd, seed) {
  const sandbox = await sd.api.acquire(['code-runner']);
  if (seed) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-cr-seed-'));
    try {
      writeTree(dir, seed);
      await sd.api.uploadAndInitialize(sandbox.local_sandbox_id, makeTarGz(dir));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const url = sandbox.servers[0].mcp_server_url;
  return { id: sandbox.local_sandbox_id, url, unavailable: await mcpUnavailableReason(url) };
}

/** The sandbox's /tmp holds only the directory of the call that lists it. */
async function assertTmpHoldsOnlyThisCall(client) {
  const r = await client.callTool({ name: 'run-code', arguments: { code: 'ls -A /tmp', languageId: 'shellscript' } });
  assert.match(r.content[0].text, /^code-runner-[A-Za-z0-9]{6}\n$/);
}

describe('code-runner server through sandboxd', () => {
  let sd;
  let sb;
  let client;

  before(async () => {
    sd = await startSandboxd();
    sb = await acquire(sd, { 'input.txt': 'seeded\n' });
    if (!sb.unavailable) client = await connectMcp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sd?.stop();
  });

  test('acquire gives one code-runner URL; tools/list is the reference\'s', async (t) => {
    assert.equal(new URL(sb.url).pathname, '/code-runner/mcp/');
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(client.getServerVersion(), { name: 'Code Runner', version: '0.1.0' });
    const { tools } = await client.listTools();
    checkToolList(tools);
  });

  test('each interpreter of the jail, exact results', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(await run(client, 'python', "import os\nprint(open('input.txt').read().strip(), os.getcwd(), __file__)"),
      result('seeded /data <TMP>/tmp.python\n'));
    assert.deepEqual(await run(client, 'javascript', "console.log(require('fs').readFileSync('input.txt', 'utf8').trim(), process.cwd(), __filename)"),
      result('seeded /data <TMP>/tmp.js\n'));
    assert.deepEqual(await run(client, 'shellscript', 'echo "$(cat input.txt) $(pwd) $0"'), result('seeded /data <TMP>/tmp.shellscript\n'));
    assert.deepEqual(await run(client, 'perl', 'open(my $f, "<", "input.txt"); my $l = <$f>; chomp $l; print "$l $0\\n";'),
      result('seeded <TMP>/tmp.perl\n'));
    assert.deepEqual(await run(client, 'python', '1/0'), result(
      'Error: Command failed: python3 -u "<TMP>/tmp.python"\nTraceback (most recent call last):\n' +
      '  File "<TMP>/tmp.python", line 1, in <module>\n    1/0\n    ~^~\nZeroDivisionError: division by zero\n', true));
    assert.deepEqual(await run(client, 'perl', 'warn "w\\n"'), result('Stderr: w\n', true));
    assert.deepEqual(await run(client, 'ruby', 'puts 1'),
      result('Error: Command failed: ruby "<TMP>/tmp.ruby"\n/bin/sh: 1: ruby: not found\n', true));
    assert.deepEqual(await run(client, 'python', ''), result('Code is required.', true));
  });

  test('stdin is empty, the environment is the jail\'s', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(await run(client, 'python', 'input()'), result(
      'Error: Command failed: python3 -u "<TMP>/tmp.python"\nTraceback (most recent call last):\n' +
      '  File "<TMP>/tmp.python", line 1, in <module>\n    input()\nEOFError: EOF when reading a line\n', true));
    assert.deepEqual(await run(client, 'shellscript', 'echo "$HOME $TMPDIR $LANG"; id -u'), result('/root /tmp C.UTF-8\n0\n'));
  });

  test('files the code writes in /data are in the workspace dump; /tmp is left clean', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(await run(client, 'python', "open('out.txt', 'w').write('from python\\n')"), result(''));
    await assertTmpHoldsOnlyThisCall(client);
    const files = readTarGzFiles(await sd.api.dump(sb.id));
    assert.deepEqual(Object.keys(files).sort(), ['input.txt', 'out.txt']);
    assert.equal(files['out.txt'].toString(), 'from python\n');
  });

  test('concurrent calls (one session and several) each get their own run', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    const others = await Promise.all([0, 1, 2].map(() => connectMcp(sb.url)));
    try {
      const clients = [client, client, client, ...others];
      const got = await Promise.all(clients.map((c, i) =>
        run(c, i % 2 ? 'python' : 'shellscript', i % 2 ? `import time\ntime.sleep(0.3)\nprint(${i})` : `sleep 0.3; echo ${i}`)));
      got.forEach((r, i) => assert.deepEqual(r, result(`${i}\n`)));
    } finally {
      await Promise.all(others.map((c) => c.close()));
    }
    await assertTmpHoldsOnlyThisCall(client);
  });

  test('after release the URL answers 404', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    await sd.api.release(sb.id);
    await assert.rejects(connectMcp(sb.url), (err) => err.code === 404);
  });
});

describe('code-runner settings (--server-settings)', () => {
  let started;
  let sb;
  let client;

  before(async () => {
    started = await startWith({ 'code-runner': { timeout_ms: 1500, max_output_bytes: 100, commands: { perl6: 'perl -l' } } },
      ['--sandbox-tmp-mb', '1']);
    sb = await acquire(started.sd);
    if (!sb.unavailable) client = await connectMcp(sb.url);
  });
  after(async () => {
    await client?.close();
    await started?.sd.stop();
    started?.cleanup();
  });

  test('timeout_ms: the run and its children are killed', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    const t0 = Date.now();
    assert.deepEqual(await run(client, 'shellscript', '(sleep 60) & echo started >&2; sleep 60'),
      result('Error: Command timed out after 1500 ms: bash "<TMP>/tmp.shellscript"\nstarted\n', true));
    assert.ok(Date.now() - t0 < 10_000, `took ${Date.now() - t0} ms`);
    assert.deepEqual(await run(client, 'shellscript', 'pgrep -c sleep || true'), result('0\n'));
  });

  test('max_output_bytes: Node\'s maxBuffer error at the bound', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(await run(client, 'python', "print('x' * 99)"), result(`${'x'.repeat(99)}\n`));
    assert.deepEqual(await run(client, 'python', "print('x' * 100)"), result('Error: stdout maxBuffer length exceeded', true));
  });

  test('commands: a language\'s command replaced', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(await run(client, 'perl6', 'print $0; print "x"'), result('<TMP>/tmp.perl6\nx\n'));
  });

  test('the description states the timeout', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    const { tools } = await client.listTools();
    assert.match(tools[0].description, / in \/data\. .* Runs longer than 1500 ms are stopped\.$/);
  });

  test('a code file larger than the sandbox\'s /tmp: Node\'s ENOSPC text, nothing left behind', async (t) => {
    if (sb.unavailable) return t.skip(sb.unavailable);
    assert.deepEqual(await run(client, 'python', `# ${'x'.repeat(1536 * 1024)}\nprint(1)`),
      result('ENOSPC: no space left on device, write', true));
    assert.deepEqual(await run(client, 'shellscript', 'ls /tmp | wc -l'), result('1\n'));
  });

  test('an unknown setting stops sandboxd at start', async () => {
    await assert.rejects(startWith({ 'code-runner': { timeout: 5 } }),
      /code-runner: unknown setting 'timeout' \(known: timeout_ms, max_output_bytes, temp_dir, commands\)/);
  });
});

describe('code-runner fork bomb: contained by the sandbox\'s process limit', () => {
  const PIDS = 64;
  let started;
  let a;
  let b;
  let ca;
  let cb;

  before(async () => {
    started = await startWith({ 'code-runner': { timeout_ms: 4000 } }, ['--sandbox-pids', String(PIDS)]);
    const before = new Set(Object.keys(jailProcessCounts(started.sd)));
    a = await acquire(started.sd);
    a.cgroups = Object.keys(jailProcessCounts(started.sd)).filter((d) => !before.has(d));
    b = await acquire(started.sd);
    if (!a.unavailable) [ca, cb] = await Promise.all([connectMcp(a.url), connectMcp(b.url)]);
  });
  after(async () => {
    await ca?.close();
    await cb?.close();
    await started?.sd.stop();
    started?.cleanup();
  });

  // What a python run answers while its sandbox is at the pid limit: it
  // catches a free slot and runs, or the agent cannot spawn /bin/sh, or
  // /bin/sh cannot fork python3 (upstream's exec reports each the same way).
  const pythonOutcomesAtPidLimit = (printed) => [
    result(printed),
    result('Error: spawn /bin/sh EAGAIN', true),
    result('Error: Command failed: python3 -u "<TMP>/tmp.python"\n/bin/sh: 1: Cannot fork\n', true),
  ];

  const bombs = [
    ['shellscript', 'bomb() { bomb | bomb & }; bomb; sleep 60'],
    ['python', 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass'],
  ];
  for (const [languageId, code] of bombs) {
    test(`${languageId} fork bomb: the call times out, others keep working, nothing is left`, async (t) => {
      if (a.unavailable) return t.skip(a.unavailable);
      assert.equal(a.cgroups.length, 1, `sandbox A's pids cgroup: ${a.cgroups}`);
      const t0 = Date.now();
      const bomb = run(ca, languageId, code);
      // The bomb is at the limit, not beyond it (how soon it gets there
      // depends on the host's load).
      let during = 0;
      for (let i = 0; i < 30 && during <= PIDS / 2; i++) {
        await sleep(100);
        during = jailProcessCounts(started.sd)[a.cgroups[0]] ?? 0;
      }
      assert.ok(during > PIDS / 2 && during <= PIDS, `sandbox A holds ${during} tasks`);
      // The other sandbox and the host are unaffected meanwhile.
      assert.deepEqual(await run(cb, 'python', "print('fine')"), result('fine\n'));
      assert.equal(spawnSync('true').status, 0);
      // Another call in sandbox A meanwhile: it waits for a worker thread
      // (none can start) and runs after the bomb, or fails to fork (the
      // agent's spawn of /bin/sh, or /bin/sh's fork of python3); the agent
      // lives on either way.
      const second = run(ca, 'python', "print('after')");
      const r = await bomb;
      assert.ok(Date.now() - t0 < 30_000, `took ${Date.now() - t0} ms`);
      assert.equal(r.isError, true);
      const command = languageId === 'python' ? 'python3 -u "<TMP>/tmp.python"' : 'bash "<TMP>/tmp.shellscript"';
      assert.ok(r.content[0].text.startsWith(`Error: Command timed out after 4000 ms: ${command}\n`), r.content[0].text);
      const s2 = await second;
      assert.ok(pythonOutcomesAtPidLimit('after\n').some((o) => isDeepStrictEqual(s2, o)), JSON.stringify(s2));
      // Only the agent is left, and sandbox A runs code again.
      for (let i = 0; i < 50 && jailProcessCounts(started.sd)[a.cgroups[0]] > 10; i++) await sleep(100);
      assert.ok(jailProcessCounts(started.sd)[a.cgroups[0]] <= 10);
      assert.deepEqual(await run(ca, 'python', "print('again')"), result('again\n'));
    });
  }

  test('a detached bomb (own session) outlives its call: sandbox A refuses new runs, B does not care', async (t) => {
    if (a.unavailable) return t.skip(a.unavailable);
    // The call returns only once the bomb has its own session: until then it
    // is still in the call's process group, which the end of the call kills.
    const detach = 'rm -f /tmp/bomb-detached; ' +
      'setsid bash -c \'touch /tmp/bomb-detached; bomb() { bomb | bomb & }; bomb; sleep 600\' </dev/null >/dev/null 2>&1 & ' +
      'while [ ! -e /tmp/bomb-detached ]; do sleep 0.05; done; echo detached';
    assert.deepEqual(await run(ca, 'shellscript', detach), result('detached\n'));
    // How fast the bomb fills the limit depends on the host's load: wait for it.
    let count = 0;
    for (let i = 0; i < 150 && count <= PIDS / 2; i++) {
      await sleep(100);
      count = jailProcessCounts(started.sd)[a.cgroups[0]] ?? 0;
    }
    assert.ok(count > PIDS / 2, `the bomb holds ${count} of ${PIDS} pids`);
    // The bomb's processes die and respawn as forks fail, so a run in A may
    // catch a free slot: it answers either way, and never hangs.
    const inA = await run(ca, 'python', "print('no')");
    assert.ok(pythonOutcomesAtPidLimit('no\n').some((o) => isDeepStrictEqual(inA, o)), JSON.stringify(inA));
    assert.deepEqual(await run(cb, 'python', "print('fine')"), result('fine\n'));
  });

  test('release leaves no process and no cgroup of sandbox A', async (t) => {
    if (a.unavailable) return t.skip(a.unavailable);
    await started.sd.api.release(a.id);
    for (let i = 0; i < 100 && a.cgroups[0] in jailProcessCounts(started.sd); i++) await sleep(100);
    assert.equal(a.cgroups[0] in jailProcessCounts(started.sd), false, 'sandbox A\'s cgroup is still there');
    assert.deepEqual(await run(cb, 'shellscript', 'echo still'), result('still\n'));
  });
});
