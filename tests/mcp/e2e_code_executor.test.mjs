// The code-executor server of a real sandbox, end to end with the official
// MCP TypeScript SDK over Streamable HTTP: acquire ["code-executor"], seed
// the workspace the way MCP-Atlas lays it out (repos/mcp_code_executor_workspace),
// call every tool with exact expectations (upstream's JSON texts, the
// "isError" inside the text block on the wire), try to leave /data, dump the
// workspace; then a sandboxd with non-default settings (--server-settings).
//
// Expected texts follow upstream (bazinga012/mcp_code_executor src/index.ts,
// as geobio publishes it); src/servers/code_executor/golden_test.cc names
// the upstream function behind each shape.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { McpError } from '@modelcontextprotocol/sdk/types.js';

import {
  REFERENCE_DIR, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';
import { callJson, rawToolCall, suffixOf } from './lib/code_executor_wire.mjs';

const STORE = '/data/repos/mcp_code_executor_workspace';
const VENV = `${STORE}/.venv`;
const SEED = {
  'repos/mcp_code_executor_workspace/pyproject.toml': '[project]\nname = "workspace"\nversion = "0.1.0"\n',
  'repos/mcp_code_executor_workspace/helper_mod.py': '__version__ = "0.4.2"\n\ndef double(x):\n    return 2 * x\n',
  'repos/mcp_code_executor_workspace/data.csv': 'a,b\n1,2\n3,4\n',
  'notes.txt': 'seeded\n',
};
const NO_NETWORK = 'No package index is reachable from this sandbox: it has no network access, so only ' +
  'requirements that are already installed can be satisfied.\n';

function seedArchive(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-ce-seed-'));
  try {
    writeTree(dir, files);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const activated = (venv, file) => `source ${venv}/bin/activate && python3 -u "${file}"`;

describe('code-executor server through sandboxd', () => {
  let sd;
  let sandbox;
  let url;
  let unavailable = null;
  let client;

  before(async () => {
    sd = await startSandboxd();
    sandbox = await sd.api.acquire(['code-executor']);
    url = sandbox.servers[0].mcp_server_url;
    await sd.api.uploadAndInitialize(sandbox.local_sandbox_id, seedArchive(SEED));
    unavailable = await mcpUnavailableReason(url);
    if (!unavailable) client = await connectMcp(url);
  });
  after(async () => {
    await client?.close();
    if (sandbox) await sd?.api.release(sandbox.local_sandbox_id).catch(() => {});
    await sd?.stop();
  });

  test('tools/list: the 9 upstream tools with their exact schemas; serverInfo', async (t) => {
    if (unavailable) return t.skip(unavailable);
    assert.equal(new URL(url).pathname, '/code-executor/mcp/');
    const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'code-executor.json'), 'utf8'));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((x) => x.name), ref.tools.map((x) => x.name));
    for (const [i, tool] of tools.entries()) {
      assert.equal(JSON.stringify(tool.inputSchema), JSON.stringify(ref.tools[i].inputSchema), tool.name);
      assert.ok(tool.description.length > 0);
    }
    assert.deepEqual(client.getServerVersion(), { name: 'code-executor', version: '0.3.0' });
  });

  test('get_environment_config: the MCP-Atlas default', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const { text } = await callJson(client, 'get_environment_config');
    assert.equal(text, `{"status":"success","config":{"type":"venv-uv","uv_venv_path":"${VENV}"}}`);
  });

  test('execute_code: the wire shape, with "isError" inside the text block', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const reply = await rawToolCall(url, client, 'execute_code', { code: 'print("hello from the jail")' });
    const block = reply.result.content[0];
    const name = JSON.parse(block.text).generated_filename;
    suffixOf(name, 'code');
    assert.equal(JSON.stringify(reply.result), JSON.stringify({
      content: [{
        type: 'text',
        text: `{"status":"success","output":"hello from the jail\\n","file_path":"${STORE}/${name}",` +
          `"generated_filename":"${name}"}`,
        isError: false,
      }],
    }));
  });

  test('execute_code: storage dir is the cwd and on sys.path; errors as exec reports them', async (t) => {
    if (unavailable) return t.skip(unavailable);
    let { body } = await callJson(client, 'execute_code', {
      code: 'import csv, sys, helper_mod\nrows = list(csv.reader(open("data.csv")))\n' +
        'print(helper_mod.double(len(rows)), sys.prefix)',
      filename: 'analysis.py',
    });
    suffixOf(body.generated_filename, 'analysis');
    assert.deepEqual(body, {
      status: 'success', output: `6 ${VENV}\n`, file_path: `${STORE}/${body.generated_filename}`,
      generated_filename: body.generated_filename,
    });
    ({ body } = await callJson(client, 'execute_code', { code: 'x = 1\nraise ValueError("bad value")' }));
    const file = body.file_path;
    assert.deepEqual(body, {
      status: 'error',
      error: `Command failed: ${activated(VENV, file)}\nTraceback (most recent call last):\n` +
        `  File "${file}", line 2, in <module>\n    raise ValueError("bad value")\nValueError: bad value\n`,
      file_path: file,
      generated_filename: path.basename(file),
    });
    ({ body } = await callJson(client, 'execute_code', { code: 'import warnings; warnings.warn("careful")' }));
    assert.equal(body.status, 'error');
    assert.equal(body.output, `${body.file_path}:1: UserWarning: careful\n  import warnings; warnings.warn("careful")\n`);
  });

  test('empty required strings: upstream\'s JSON-RPC error -32603', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const cases = [
      ['execute_code', { code: '' }, 'Code is required'],
      ['initialize_code_file', { content: '' }, 'Content is required'],
      ['append_to_code_file', { file_path: '', content: 'x' }, 'File path is required'],
      ['read_code_file', { file_path: '' }, 'File path is required'],
      ['execute_code_file', { file_path: '' }, 'File path is required'],
    ];
    for (const [name, args, message] of cases) {
      await assert.rejects(client.callTool({ name, arguments: args }), (err) => {
        assert.ok(err instanceof McpError, String(err));
        assert.equal(err.code, -32603);
        assert.equal(err.message, `MCP error -32603: ${message}`);
        return true;
      }, name);
    }
  });

  test('initialize_code_file, append_to_code_file, read_code_file, execute_code_file', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const { body: init } = await callJson(client, 'initialize_code_file', { content: 'total = 0\n', filename: 'sum' });
    const hex = suffixOf(init.filename, 'sum');
    const file = `${STORE}/sum_${hex}.py`;
    assert.deepEqual(init, { status: 'success', message: 'File initialized successfully', file_path: file, filename: `sum_${hex}.py` });
    let { text } = await callJson(client, 'append_to_code_file', { file_path: file, content: 'for i in range(5):\n    total += i\n' });
    assert.equal(text, `{"status":"success","message":"Content appended successfully","file_path":"${file}"}`);
    // Relative paths are relative to the storage directory.
    ({ text } = await callJson(client, 'append_to_code_file', { file_path: `sum_${hex}.py`, content: 'print(total)\n' }));
    assert.equal(text, `{"status":"success","message":"Content appended successfully","file_path":"sum_${hex}.py"}`);
    ({ text } = await callJson(client, 'read_code_file', { file_path: file }));
    assert.equal(text, JSON.stringify({ status: 'success', content: 'total = 0\nfor i in range(5):\n    total += i\nprint(total)\n', file_path: file }));
    ({ text } = await callJson(client, 'execute_code_file', { file_path: file }));
    assert.equal(text, `{"status":"success","output":"10\\n","file_path":"${file}"}`);
    ({ text } = await callJson(client, 'read_code_file', { file_path: '/data/nope.py' }));
    assert.equal(text, `{"status":"error","error":"ENOENT: no such file or directory, access '/data/nope.py'","file_path":"/data/nope.py"}`);
  });

  test('check_installed_packages: details per package, JavaScript key order', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const { body } = await callJson(client, 'check_installed_packages', { packages: ['helper_mod', 'json', 'nonexistent_zz', '7'] });
    assert.deepEqual(Object.keys(body), ['status', 'env_type', 'all_installed', 'not_installed', 'package_details']);
    assert.deepEqual(Object.keys(body.package_details), ['7', 'helper_mod', 'json', 'nonexistent_zz']);
    assert.equal(body.env_type, 'venv-uv');
    assert.equal(body.all_installed, false);
    assert.deepEqual(body.not_installed, ['7', 'nonexistent_zz']);
    assert.deepEqual(body.package_details.helper_mod, { installed: true, version: '0.4.2', location: `${STORE}/helper_mod.py` });
    assert.equal(body.package_details.json.installed, true);
    assert.deepEqual(body.package_details.nonexistent_zz, { installed: false, error: 'Package not found' });
  });

  test('install_dependencies: already satisfied offline; otherwise a quick, clear failure', async (t) => {
    if (unavailable) return t.skip(unavailable);
    let { body } = await callJson(client, 'install_dependencies', { packages: ['pip'] });
    assert.equal(body.status, 'success', JSON.stringify(body));
    assert.deepEqual(Object.keys(body), ['status', 'env_type', 'installed_packages', 'output']);
    assert.match(body.output, /^Requirement already satisfied: pip in \/usr\/lib\/python3\/dist-packages \(\d+(\.\d+)+\)\n$/);
    const start = Date.now();
    ({ body } = await callJson(client, 'install_dependencies', { packages: ['nonexistent-pkg-zz'] }));
    assert.ok(Date.now() - start < 30_000, `took ${Date.now() - start} ms`);
    assert.deepEqual(Object.keys(body), ['status', 'env_type', 'error']);
    assert.equal(body.env_type, 'venv-uv');
    assert.ok(body.error.startsWith(`Command failed: source ${VENV}/bin/activate && python3 -m pip install nonexistent-pkg-zz\n`), body.error);
    assert.ok(body.error.endsWith(`ERROR: No matching distribution found for nonexistent-pkg-zz\n${NO_NETWORK}`), body.error);
    ({ text: body } = await callJson(client, 'install_dependencies', { packages: [] }));
    assert.equal(body, '{"status":"error","error":"No packages specified"}');
  });

  test('configure_environment: venv (created on first use), conda (missing), back', async (t) => {
    if (unavailable) return t.skip(unavailable);
    let { text } = await callJson(client, 'configure_environment', { type: 'venv', venv_path: '/data/venvs/alt' });
    assert.equal(text, '{"status":"success","message":"Environment configuration updated",' +
      `"previous":{"type":"venv-uv","uv_venv_path":"${VENV}"},` +
      `"current":{"type":"venv","venv_path":"/data/venvs/alt","uv_venv_path":"${VENV}"}}`);
    let { body } = await callJson(client, 'execute_code', { code: 'import sys; print(sys.prefix)' });
    assert.equal(body.output, '/data/venvs/alt\n');
    ({ text } = await callJson(client, 'configure_environment', { type: 'conda', conda_name: 'myenv' }));
    assert.equal(JSON.parse(text).current.type, 'conda');
    ({ body } = await callJson(client, 'execute_code', { code: 'print(1)' }));
    assert.equal(body.error, 'Command failed: source $(conda info --base)/etc/profile.d/conda.sh && conda activate myenv && ' +
      `python3 -u "${body.file_path}"\n/bin/bash: line 1: conda: command not found\n` +
      '/bin/bash: line 1: /etc/profile.d/conda.sh: No such file or directory\n');
    ({ text } = await callJson(client, 'configure_environment', { type: 'venv-uv' }));
    assert.equal(text, '{"status":"error","error":"uv_venv_path is required when type is \'venv-uv\'"}');
    ({ text } = await callJson(client, 'configure_environment', { type: 'venv-uv', uv_venv_path: VENV }));
    ({ text } = await callJson(client, 'get_environment_config'));
    assert.equal(text, '{"status":"success","config":{"type":"venv-uv","conda_name":"myenv",' +
      `"venv_path":"/data/venvs/alt","uv_venv_path":"${VENV}"}}`);
  });

  test('escapes: paths outside /data, .., sibling prefix, a link planted by the code', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const denied = (p) => `Access denied - path outside allowed directories: ${p} not in /data`;
    for (const [given, shown] of [['/etc/passwd', '/etc/passwd'], ['../../../etc/passwd', '/etc/passwd'],
      ['/data2/x.py', '/data2/x.py'], ['/data/../root/x.py', '/root/x.py']]) {
      for (const name of ['read_code_file', 'append_to_code_file', 'execute_code_file']) {
        const { text } = await callJson(client, name, { file_path: given, content: 'x' });
        assert.equal(text, JSON.stringify({ status: 'error', error: denied(shown), file_path: given }), `${name} ${given}`);
      }
    }
    await callJson(client, 'execute_code', { code: 'import os; os.symlink("/etc/passwd", "planted.py")' });
    const { text } = await callJson(client, 'read_code_file', { file_path: 'planted.py' });
    assert.equal(text, JSON.stringify({
      status: 'error', error: 'Access denied - symlink target outside allowed directories: /etc/passwd not in /data', file_path: 'planted.py',
    }));
    const { body } = await callJson(client, 'initialize_code_file', { content: 'x', filename: '../../../../tmp/evil' });
    assert.ok(body.error.startsWith(denied('/tmp/evil_').slice(0, -' not in /data'.length)), body.error);
  });

  test('the workspace dump holds what the tools wrote', async (t) => {
    if (unavailable) return t.skip(unavailable);
    const files = readTarGzFiles(await sd.api.dump(sandbox.local_sandbox_id));
    const names = Object.keys(files);
    const store = 'repos/mcp_code_executor_workspace/';
    for (const [rel, content] of Object.entries(SEED)) assert.equal(files[rel].toString(), content, rel);
    assert.ok(names.some((n) => /^repos\/mcp_code_executor_workspace\/code_[0-9a-f]{8}\.py$/.test(n)), names.join(' '));
    assert.ok(names.some((n) => /^repos\/mcp_code_executor_workspace\/check_packages_[0-9a-f]{8}\.py$/.test(n)));
    const sum = names.find((n) => /^repos\/mcp_code_executor_workspace\/sum_[0-9a-f]{8}\.py$/.test(n));
    assert.equal(files[sum].toString(), 'total = 0\nfor i in range(5):\n    total += i\nprint(total)\n');
    assert.match(files[`${store}.venv/pyvenv.cfg`].toString(), /include-system-site-packages = true/);
    assert.ok(`venvs/alt/pyvenv.cfg` in files);
  });
});

describe('code-executor with deployment settings (--server-settings)', () => {
  let sd;
  let root;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-ce-settings-'));
    const settings = path.join(root, 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({
      'code-executor': { storage_dir: '/data/code', env_type: 'venv', venv_path: '/data/code/env', timeout_seconds: 2 },
    }));
    sd = await startSandboxd({ extraArgs: ['--server-settings', settings] });
  });
  after(async () => {
    await sd?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('storage dir, environment and time limit come from the settings', async (t) => {
    const sandbox = await sd.api.acquire(['code-executor']);
    const url = sandbox.servers[0].mcp_server_url;
    const unavailable = await mcpUnavailableReason(url);
    if (unavailable) return t.skip(unavailable);
    const client = await connectMcp(url);
    try {
      let { text } = await callJson(client, 'get_environment_config');
      assert.equal(text, '{"status":"success","config":{"type":"venv","venv_path":"/data/code/env"}}');
      const start = Date.now();
      const { body } = await callJson(client, 'execute_code', {
        code: 'import time\nprint("started", flush=True)\ntime.sleep(30)',
      });
      assert.ok(Date.now() - start < 15_000);
      assert.ok(body.file_path.startsWith('/data/code/code_'), body.file_path);
      assert.equal(body.error, `Command failed: ${activated('/data/code/env', body.file_path)}\n` +
        'Killed after the time limit of 2 seconds.\n');
    } finally {
      await client.close();
      await sd.api.release(sandbox.local_sandbox_id);
    }
  });

  test('invalid settings stop sandboxd at start', async () => {
    const bad = path.join(root, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ 'code-executor': { env_type: 'conda' } }));
    await assert.rejects(startSandboxd({ extraArgs: ['--server-settings', bad] }),
      /conda_name \(required for conda environment\)/);
  });
});
