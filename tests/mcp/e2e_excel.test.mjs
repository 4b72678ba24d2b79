// The excel MCP server of a sandbox, end to end with the official MCP
// TypeScript SDK: tools/list against the reference (and against the 0.1.4
// variant's capture on a sandboxd started with that variant), the golden
// scenarios of src/servers/excel/testdata (their texts are what upstream's
// own tool functions returned on the same calls) replayed under /data,
// every workbook written fetched through the dump and read by Debian's
// openpyxl and pandas (compared with what upstream's calls left) and
// converted by LibreOffice, hostile workbooks refused with the files
// unchanged and the sandbox healthy, paths out of /data refused, and the
// deployment settings checked at startup.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { PYTHON, convertWithLibreOffice } from './lib/office.mjs';
import {
  REFERENCE_DIR, REPO_ROOT, connectMcp, makeTarGz, mcpUnavailableReason, readTarGzFiles, startSandboxd,
} from './lib/sandboxd.mjs';

const TESTDATA = path.join(REPO_ROOT, 'src', 'servers', 'excel', 'testdata');
const scenario = (name) => JSON.parse(fs.readFileSync(path.join(TESTDATA, `${name}.json`), 'utf8'));
const golden = (name) => fs.readFileSync(path.join(TESTDATA, `${name}_final.txt`), 'utf8');

/** The seed tree: the Excel-style workbook and the hostile ones, as a tar.gz. */
function seedArchive() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-excel-seed-'));
  try {
    fs.mkdirSync(path.join(dir, 'hostile'));
    execFileSync(PYTHON, [path.join(TESTDATA, 'seed_workbook.py'), path.join(dir, 'seed.xlsx')]);
    execFileSync(PYTHON, [path.join(TESTDATA, 'hostile_workbooks.py'), path.join(dir, 'hostile'), '300']);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `unzip` over a workbook's bytes (via a temporary file): its stdout. */
function unzip(bytes, args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-excel-zip-'));
  try {
    fs.writeFileSync(path.join(dir, 'w.xlsx'), bytes);
    return execFileSync('unzip', [...args.slice(0, 1), path.join(dir, 'w.xlsx'), ...args.slice(1)], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** testdata/dump_workbook.py's view of a workbook's bytes. */
function pythonView(bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-excel-view-'));
  try {
    const file = path.join(dir, 'w.xlsx');
    fs.writeFileSync(file, bytes);
    return execFileSync(PYTHON, [path.join(TESTDATA, 'dump_workbook.py'), file], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function checkToolList(tools, ref, { structured }) {
  assert.deepEqual(tools.map((t) => t.name), ref.tools.map((t) => t.name));
  for (const [i, t] of tools.entries()) {
    assert.deepEqual(t.inputSchema, ref.tools[i].inputSchema, t.name);
    if (structured) assert.deepEqual(t.outputSchema, ref.tools[i].outputSchema, t.name);
    else assert.equal(t.outputSchema, undefined, t.name);
    assert.ok(t.description.length > 0, t.name);
  }
}

/** Replays testdata/<name>.json with $W = `dir`: every text and error exact. */
async function replay(client, name, dir) {
  for (const [i, c] of scenario(name).entries()) {
    const args = JSON.parse(JSON.stringify(c.args).replaceAll('$W', dir));
    const r = await client.callTool({ name: c.tool, arguments: args });
    let text = r.content[0].text.replaceAll(dir, '$W');
    if (c.tool === 'get_workbook_metadata' && !r.isError) {
      text = text.replace(/'size': \d+, 'modified': [0-9.e+]+/, "'size': SIZE, 'modified': MTIME");
    }
    const where = `${name} #${i} ${c.tool} ${JSON.stringify(c.args)}`;
    if ('error' in c) {
      assert.equal(r.isError, true, where);
      assert.equal(text, c.error, where);
    } else {
      assert.equal(r.isError ?? false, false, where);
      assert.equal(text, c.text, where);
      assert.deepEqual(r.structuredContent, { result: r.content[0].text }, where);
    }
  }
}

describe('excel server through sandboxd (0.1.7)', () => {
  let sd;
  let id;
  let url;
  let unavailable = null;
  let client;
  const written = {};

  before(async () => {
    sd = await startSandboxd();
  });
  after(async () => {
    await client?.close();
    if (id) await sd?.api.release(id).catch(() => {});
    await sd?.stop();
  });
  const skip = (t) => {
    if (unavailable) t.skip(unavailable);
    return Boolean(unavailable);
  };

  test('acquire ["excel"], seed /data; tools/list equals excel.json; serverInfo as FastMCP', async () => {
    const sandbox = await sd.api.acquire(['excel']);
    id = sandbox.local_sandbox_id;
    url = sandbox.servers[0].mcp_server_url;
    await sd.api.uploadAndInitialize(id, seedArchive());
    unavailable = await mcpUnavailableReason(url);
    if (unavailable) return;
    client = await connectMcp(url);
    assert.deepEqual(client.getServerVersion(), { name: 'excel-mcp', version: '1.10.1' });
    const { tools } = await client.listTools();
    checkToolList(tools, JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'excel.json'), 'utf8')),
      { structured: true });
  });

  test('a new workbook through all 25 tools: upstream\'s texts, upstream\'s workbook', async (t) => {
    if (skip(t)) return;
    await replay(client, 'fresh', '/data/work');
    const files = readTarGzFiles(await sd.api.dump(id));
    written.fresh = files['work/book.xlsx'];
    assert.equal(pythonView(written.fresh), golden('fresh'));
  });

  test('an Excel-made workbook (shared strings and formulas, dates, validations): upstream\'s texts and workbook', async (t) => {
    if (skip(t)) return;
    await replay(client, 'seeded', '/data');
    const files = readTarGzFiles(await sd.api.dump(id));
    written.seeded = files['seed.xlsx'];
    assert.equal(pythonView(written.seeded), golden('seeded'));
    // Parts openpyxl does not model stay; the calculation chain goes, as openpyxl drops it.
    const list = unzip(written.seeded, ['-Z1']).split('\n');
    assert.ok(list.includes('docProps/custom.xml'));
    assert.ok(!list.includes('xl/calcChain.xml'));
  });

  test('hostile workbooks: clear errors, files unchanged, the sandbox keeps working', async (t) => {
    if (skip(t)) return;
    const before = readTarGzFiles(await sd.api.dump(id));
    const reasons = {
      notzip: 'File is not a zip file',
      truncated: 'File is not a zip file',
      bomb: 'Unreadable workbook /data/hostile/bomb.xlsx: /xl/media/zeros.bin: the package inflates past the limit of 268435456 bytes in all',
      dotdot: "Unreadable workbook /data/hostile/dotdot.xlsx: /../evil.xml: invalid part name: it has a '.' or '..' segment",
      absolute: 'Unreadable workbook /data/hostile/absolute.xlsx: /etc/evil.xml: invalid part name: the zip entry name is absolute',
      laughs: 'Unreadable workbook /data/hostile/laughs.xlsx: /xl/worksheets/sheet1.xml: a DOCTYPE is not allowed in an OOXML part',
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const filepath = `/data/hostile/${name}.xlsx`;
      const read = await client.callTool({ name: 'read_data_from_excel', arguments: { filepath, sheet_name: 'S' } });
      assert.deepEqual(read, { content: [{ type: 'text', text: `Error executing tool read_data_from_excel: ${reason}` }], isError: true });
      const write = await client.callTool({ name: 'write_data_to_excel', arguments: { filepath, sheet_name: 'S', data: [[2]] } });
      assert.equal(write.content[0].text, `Error: ${reason}`, name);
    }
    const good = await client.callTool({ name: 'write_data_to_excel', arguments: { filepath: '/data/hostile/good.xlsx', sheet_name: 'S', data: [[7]], start_cell: 'B1' } });
    assert.equal(good.content[0].text, 'Data written to S');
    const afterFiles = readTarGzFiles(await sd.api.dump(id));
    for (const name of Object.keys(reasons)) {
      assert.ok(before[`hostile/${name}.xlsx`].equals(afterFiles[`hostile/${name}.xlsx`]), `${name} unchanged`);
    }
    assert.deepEqual(Object.keys(afterFiles).filter((f) => f.includes('tmp')), [], 'no temporary left');
    written.good = afterFiles['hostile/good.xlsx'];
  });

  test('paths: relative refused as upstream does; outside /data refused; nothing written outside', async (t) => {
    if (skip(t)) return;
    const rel = await client.callTool({ name: 'create_workbook', arguments: { filepath: 'x.xlsx' } });
    assert.deepEqual(rel, { content: [{ type: 'text', text: 'Error executing tool create_workbook: Invalid filename: x.xlsx, must be an absolute path when not in SSE mode' }], isError: true });
    for (const filepath of ['/tmp/x.xlsx', '/data/../tmp/x.xlsx', '/etc/passwd.xlsx']) {
      const r = await client.callTool({ name: 'create_workbook', arguments: { filepath } });
      assert.equal(r.content[0].text, `Error: Failed to create workbook: [Errno 13] Permission denied: '${filepath}'`);
      const m = await client.callTool({ name: 'read_data_from_excel', arguments: { filepath, sheet_name: 'Sheet1' } });
      assert.equal(m.isError, true);
    }
  });

  test('invalid arguments: pydantic\'s text as FastMCP 1.10.1 returns it', async (t) => {
    if (skip(t)) return;
    // The whole input's repr is 51 characters: pydantic shows 25, ..., 24.
    const r = await client.callTool({ name: 'insert_rows', arguments: { sheet_name: 'S', start_row: 'one', extra: 1 } });
    assert.deepEqual(r, { content: [{ type: 'text', text: 'Error executing tool insert_rows: 2 validation errors for insert_rowsArguments\n' +
      "filepath\n  Field required [type=missing, input_value={'sheet_name': 'S', 'star...row': 'one', 'extra': 1}, input_type=dict]\n" +
      '    For further information visit https://errors.pydantic.dev/2.11/v/missing\n' +
      'start_row\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value=\'one\', input_type=str]\n' +
      '    For further information visit https://errors.pydantic.dev/2.11/v/int_parsing' }], isError: true });
  });

  test('LibreOffice converts every workbook the suite wrote', async (t) => {
    if (skip(t)) return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-excel-lo-'));
    try {
      const paths = Object.entries(written).map(([name, bytes]) => {
        const p = path.join(dir, `${name}.xlsx`);
        fs.writeFileSync(p, bytes);
        return p;
      });
      assert.equal(paths.length, 3);
      const { result, dir: out } = await convertWithLibreOffice(paths, 'csv');
      for (const p of paths) assert.ok(result[p], `LibreOffice could not convert ${p}`);
      fs.rmSync(out, { recursive: true, force: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('excel server settings (--server-settings)', () => {
  test('variant 0.1.4: its 20 tools, no outputSchema, results without structuredContent, charts without labels', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-excel-settings-'));
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ excel: { variant: '0.1.4', max_cells: 100000 } }));
    const sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
    let id;
    let client;
    try {
      const sandbox = await sd.api.acquire(['excel']);
      id = sandbox.local_sandbox_id;
      const url = sandbox.servers[0].mcp_server_url;
      const reason = await mcpUnavailableReason(url);
      if (reason) return;
      client = await connectMcp(url);
      assert.deepEqual(client.getServerVersion(), { name: 'excel-mcp', version: '1.9.1' });
      const { tools } = await client.listTools();
      checkToolList(tools, JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'variants', 'excel@0.1.4.json'), 'utf8')),
        { structured: false });
      const created = await client.callTool({ name: 'create_workbook', arguments: { filepath: '/data/v.xlsx' } });
      assert.deepEqual(created, { content: [{ type: 'text', text: 'Created workbook at /data/v.xlsx' }] });
      await client.callTool({ name: 'write_data_to_excel', arguments: { filepath: '/data/v.xlsx', sheet_name: 'Sheet1', data: [['k', 'v'], ['a', 1], ['b', 2]] } });
      const chart = await client.callTool({ name: 'create_chart', arguments: { filepath: '/data/v.xlsx', sheet_name: 'Sheet1', data_range: 'A1:B3', chart_type: 'line', target_cell: 'D2' } });
      assert.deepEqual(chart, { content: [{ type: 'text', text: 'Line chart created successfully' }] });
      const gone = await client.callTool({ name: 'get_merged_cells', arguments: { filepath: '/data/v.xlsx', sheet_name: 'Sheet1' } });
      assert.deepEqual(gone, { content: [{ type: 'text', text: 'Unknown tool: get_merged_cells' }], isError: true });
      const files = readTarGzFiles(await sd.api.dump(id));
      const xml = unzip(files['v.xlsx'], ['-p', 'xl/charts/chart1.xml']);
      assert.ok(xml.includes('<c:lineChart>'), xml);
      assert.ok(!xml.includes('<c:dLbls>'), 'no data labels in 0.1.4');
    } finally {
      await client?.close();
      if (id) await sd.api.release(id).catch(() => {});
      await sd.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bad setting stops sandboxd at startup', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-mcp-excel-bad-'));
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ excel: { max_cells: 0 } }));
    try {
      await assert.rejects(startSandboxd({ extraArgs: ['--server-settings', file] }));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
