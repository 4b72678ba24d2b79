// The pdf-tools server of a sandbox, driven end to end with the official
// MCP TypeScript SDK against a real sandboxd: tools/list against the
// reference (and the klavis variant's), every tool with ordinary and edge
// inputs and exact texts, the PDFs it writes checked by independent readers
// (qpdf --check, pdftotext, pypdf, one LibreOffice run), and a hostile
// corpus that must end in answers, not in a dead sandbox or a stray helper.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import {
  REFERENCE_DIR, connectMcp, makeTarGz, readTarGzFiles, sleep, startSandboxd, writeTree,
} from './lib/sandboxd.mjs';
import { convertWithLibreOffice, pdftotext, pythonJson, qpdfCheck } from './lib/office.mjs';
import { hostilePdfs, makePdf } from './lib/pdf_files.mjs';

const UNREADABLE = 'the file is not a readable PDF (damaged, truncated or another format)';

function archive(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-pdf-seed-'));
  try {
    writeTree(dir, files);
    return makeTarGz(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function seedFiles() {
  return {
    'docs/three.pdf': makePdf([['Alpha one', 'apple pie'], ['Beta two'], ['Gamma three', 'Apple tart']],
      { Title: 'Fruit', Author: 'Ada', CreationDate: 'D:20240102030405Z' }),
    'docs/plain.pdf': makePdf([['Only page']]),
    'docs/many.pdf': makePdf(Array.from({ length: 60 }, (_, i) => [`Page number ${i + 1}`, 'needle here'])),
    'docs/blank.pdf': makePdf([[]]),
    'notes.txt': 'not a pdf',
    ...Object.fromEntries(Object.entries(hostilePdfs()).map(([k, v]) => [`hostile/${k}`, v])),
  };
}

/** FastMCP's answer: one text block, structuredContent {result} equal to it, no isError. */
async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r)}`);
  assert.equal(r.content.length, 1);
  assert.deepEqual(r.structuredContent, { result: r.content[0].text });
  return r.content[0].text;
}

/** Pids of sandbox-pdf helpers anywhere on the host (argv[0] is the helper's name). */
function helperPids() {
  const pids = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0')[0];
      if (argv0 === 'sandbox-pdf') pids.push(pid);
    } catch { /* gone */ }
  }
  return pids;
}

function settingsFile(dir, name, settings) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(settings));
  return file;
}

// What the SDK client keeps of a tools/list entry: its annotations schema
// drops keys it does not know (Klavis' "category"; the unit test checks them).
function schemaView(tools) {
  return tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema, outputSchema: t.outputSchema,
    readOnlyHint: t.annotations?.readOnlyHint }));
}

describe('pdf-tools server through sandboxd', () => {
  let sd;
  let tmp;
  let sandboxId;
  let client;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-pdf-'));
    // A short session TTL so expiry can be seen; the other bounds as deployed.
    const file = settingsFile(tmp, 'settings.json', { 'pdf-tools': { search_ttl_seconds: 2 } });
    sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
    const sandbox = await sd.api.acquire(['pdf-tools']);
    sandboxId = sandbox.local_sandbox_id;
    assert.equal(new URL(sandbox.servers[0].mcp_server_url).pathname, '/pdf-tools/mcp/');
    await sd.api.uploadAndInitialize(sandboxId, archive(seedFiles()));
    client = await connectMcp(sandbox.servers[0].mcp_server_url);
  });
  after(async () => {
    await client?.close();
    await sd?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('tools/list equals the reference', async () => {
    assert.deepEqual(client.getServerVersion(), { name: 'pdf-tools', version: '1.11.0' });
    const { tools } = await client.listTools();
    const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'pdf-tools.json'), 'utf8'));
    assert.deepEqual(tools.map((t) => t.name), ref.tools.map((t) => t.name));
    // The SDK re-serialises schemas (key order is checked by the unit test).
    for (const [i, t] of tools.entries()) {
      assert.deepEqual(t.inputSchema, ref.tools[i].inputSchema, t.name);
      assert.deepEqual(t.outputSchema, ref.tools[i].outputSchema, t.name);
      assert.ok(t.description.length > 0);
    }
  });

  test('read_pdf_pages: clamped 1-based ranges, the 50-page warning, errors', async () => {
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'docs/three.pdf' }),
      'PDF total pages: 3\nExtracted page range: 1-1\n\n=== Page 1 ===\nAlpha one\napple pie\n');
    // page 0 and a reversed range: each end clamped, then swapped.
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: '/data/docs/three.pdf', start_page: 3, end_page: 0 }),
      'PDF total pages: 3\nExtracted page range: 1-3\n\n=== Page 1 ===\nAlpha one\napple pie\n\n\n' +
      '=== Page 2 ===\nBeta two\n\n\n=== Page 3 ===\nGamma three\nApple tart\n');
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'docs/three.pdf', start_page: 9, end_page: 9 }),
      'PDF total pages: 3\nExtracted page range: 3-3\n\n=== Page 3 ===\nGamma three\nApple tart\n');
    const many = await call(client, 'read_pdf_pages', { pdf_file_path: 'docs/many.pdf', start_page: 1, end_page: 60 });
    assert.ok(many.startsWith('Warning: Reading more than 50 pages at once may cause performance issues or errors.\n' +
      'PDF total pages: 60\nExtracted page range: 1-60\n\n=== Page 1 ===\nPage number 1\nneedle here\n'));
    assert.ok(many.endsWith('=== Page 60 ===\nPage number 60\nneedle here\n'));
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'docs/blank.pdf' }),
      'PDF total pages: 1\nSpecified page range (1-1) has no extractable text content.');
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'docs/missing.pdf' }),
      "Error: File not found 'docs/missing.pdf'");
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'notes.txt' }),
      `Error processing PDF: ${UNREADABLE}`);
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'docs' }),
      "Error reading PDF file: [Errno 21] Is a directory: 'docs'");
    for (const escape of ['../etc/passwd', '/etc/passwd', 'docs/../../proc/self/environ']) {
      assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: escape }),
        `Error: Path '${escape}' is outside the allowed workspace '/data'`);
    }
    assert.equal(await call(client, 'read_pdf_pages', { pdf_file_path: 'https://example.com/x.pdf' }),
      "Error resolving path: Failed to download PDF from URL: HTTPSConnectionPool(host='example.com', port=443): " +
      "Max retries exceeded with url: /x.pdf (Caused by NameResolutionError(\"Failed to resolve 'example.com' " +
      '([Errno -3] Temporary failure in name resolution)"))');
    const bad = await client.callTool({ name: 'read_pdf_pages', arguments: { pdf_file_path: 'docs/three.pdf', end_page: 'x' } });
    assert.equal(bad.isError, true);
    assert.equal(bad.content[0].text,
      'Error executing tool read_pdf_pages: 1 validation error for read_pdf_pagesArguments\nend_page\n' +
      "  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', " +
      'input_type=str]\n    For further information visit https://errors.pydantic.dev/2.11/v/int_parsing');
  });

  test('get_pdf_info', async () => {
    assert.equal(await call(client, 'get_pdf_info', { pdf_file_path: 'docs/three.pdf' }),
      'PDF file information:\nTotal pages: 3\nTitle: Fruit\nAuthor: Ada\nCreator: Unknown\n' +
      'Creation date: D:20240102030405Z\n');
    assert.equal(await call(client, 'get_pdf_info', { pdf_file_path: 'docs/plain.pdf' }),
      'PDF file information:\nTotal pages: 1\n');
    assert.equal(await call(client, 'get_pdf_info', { pdf_file_path: 'nope.pdf' }), "Error: File not found 'nope.pdf'");
    assert.equal(await call(client, 'get_pdf_info', { pdf_file_path: 'notes.txt' }),
      `Error getting PDF information: ${UNREADABLE}`);
  });

  test('merge_pdfs and extract_pdf_pages write PDFs that independent readers accept', async () => {
    assert.equal(await call(client, 'merge_pdfs',
      { pdf_paths: ['docs/three.pdf', '/data/docs/plain.pdf'], output_path: 'out-merged.pdf' }),
    "Successfully merged 2 PDFs into 'out-merged.pdf'\nTotal pages: 4");
    assert.equal(await call(client, 'extract_pdf_pages',
      { source_path: 'docs/three.pdf', page_numbers: [3, 0, 1, 3, 99], output_path: 'docs/out-extract.pdf' }),
    "Successfully extracted 3 pages from 'docs/three.pdf' to 'docs/out-extract.pdf'\nExtracted pages: [3, 1, 3]\n" +
      'Source PDF total pages: 3');
    // Failures leave nothing behind and existing files unchanged.
    assert.equal(await call(client, 'extract_pdf_pages',
      { source_path: 'docs/three.pdf', page_numbers: [7], output_path: 'docs/plain.pdf' }),
    'Error: No valid pages to extract from PDF (total pages: 3)');
    assert.equal(await call(client, 'extract_pdf_pages',
      { source_path: 'docs/three.pdf', page_numbers: [1], output_path: 'no/such/dir.pdf' }),
    "Error: File not found 'docs/three.pdf'");
    assert.equal(await call(client, 'merge_pdfs', { pdf_paths: ['docs/three.pdf', 'notes.txt'], output_path: 'docs/plain.pdf' }),
      `Error reading PDF 'notes.txt': ${UNREADABLE}`);
    assert.equal(await call(client, 'merge_pdfs', { pdf_paths: ['docs/three.pdf', 'gone.pdf'], output_path: 'x.pdf' }),
      "Error reading PDF 'gone.pdf': [Errno 2] No such file or directory: 'gone.pdf'");
    assert.equal(await call(client, 'merge_pdfs', { pdf_paths: ['docs/three.pdf'], output_path: '../x.pdf' }),
      "Error: Path '../x.pdf' is outside the allowed workspace '/data'");
    assert.equal(await call(client, 'merge_pdfs', { pdf_paths: ['docs/three.pdf'], output_path: 'https://h/x.pdf' }),
      'Error: Output path cannot be a URL, must be a local file path');
    assert.equal(await call(client, 'merge_pdfs', { pdf_paths: ['http://h:8080/a.pdf'], output_path: 'x.pdf' }),
      "Error resolving path 'http://h:8080/a.pdf': Failed to download PDF from URL: HTTPConnectionPool(host='h', " +
      "port=8080): Max retries exceeded with url: /a.pdf (Caused by NameResolutionError(\"Failed to resolve 'h' " +
      '([Errno -3] Temporary failure in name resolution)"))');
    assert.equal(await call(client, 'merge_pdfs', { pdf_paths: ['docs/plain.pdf'], output_path: 'docs' }),
      "Error merging PDFs: [Errno 21] Is a directory: 'docs'");

    const files = readTarGzFiles(await sd.api.dump(sandboxId));
    assert.equal(files['docs/plain.pdf'].toString('base64'), seedFiles()['docs/plain.pdf'].toString('base64'));
    assert.deepEqual(Object.keys(files).filter((f) => /out-|x\.pdf|\.tmp$|dir\.pdf/.test(f)).sort(),
      ['docs/out-extract.pdf', 'out-merged.pdf']);
    const dir = fs.mkdtempSync(path.join(tmp, 'written-'));
    const merged = path.join(dir, 'merged.pdf');
    const extracted = path.join(dir, 'extracted.pdf');
    fs.writeFileSync(merged, files['out-merged.pdf']);
    fs.writeFileSync(extracted, files['docs/out-extract.pdf']);
    for (const p of [merged, extracted]) assert.ok((await qpdfCheck(p)).ok, p);
    assert.equal(await pdftotext(merged),
      'Alpha one\napple pie\n\n\fBeta two\n\n\fGamma three\nApple tart\n\n\fOnly page\n\n\f');
    assert.equal(await pdftotext(extracted),
      'Gamma three\nApple tart\n\n\fAlpha one\napple pie\n\n\fGamma three\nApple tart\n\n\f');
    const pypdf = await pythonJson(
      'import sys, json, pypdf\nprint(json.dumps([[p.extract_text() for p in pypdf.PdfReader(f).pages] for f in sys.argv[1:]]))',
      [merged, extracted]);
    assert.deepEqual(pypdf, [['Alpha one\napple pie\n', 'Beta two\n', 'Gamma three\nApple tart\n', 'Only page\n'],
      ['Gamma three\nApple tart\n', 'Alpha one\napple pie\n', 'Gamma three\nApple tart\n']]);
    const { result } = await convertWithLibreOffice([merged, extracted], 'odg');
    assert.ok(result[merged] && result[extracted], JSON.stringify(result));
  });

  test('search_pdf_content with paged sessions and their expiry', async () => {
    assert.equal(await call(client, 'search_pdf_content', { pdf_file_path: 'docs/three.pdf', pattern: 'zzz' }),
      'No matches found for pattern: zzz');
    assert.equal(await call(client, 'search_pdf_content', { pdf_file_path: 'missing.pdf', pattern: 'a' }),
      'Error: Could not extract text from PDF or PDF is empty');
    assert.equal(await call(client, 'search_pdf_content', { pdf_file_path: 'docs/three.pdf', pattern: '(' }),
      'No matches found for pattern: (');
    const first = await call(client, 'search_pdf_content', { pdf_file_path: 'docs/many.pdf', pattern: 'NEEDLE', page_size: 25 });
    const id = /^Search ID: ([0-9a-f]{8})\n/.exec(first)?.[1];
    assert.ok(id, first);
    const block = (n) => `Match ${n}:\n  Page: ${n}\n  Text: "needle"\n  Context: ...Page number ${n}\n[needle] here\n...\n\n`;
    const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => block(a + i)).join('');
    assert.equal(first, `Search ID: ${id}\nPattern: NEEDLE\nTotal matches: 60\nPage: 1/3\nResults per page: 25\n\n` +
      `${range(1, 25)}Use search_pdf_next_page, search_pdf_prev_page, or search_pdf_go_page with search_id '${id}' to navigate.`);
    assert.equal(await call(client, 'search_pdf_next_page', { search_id: id }),
      `Search ID: ${id}\nPattern: NEEDLE\nTotal matches: 60\nPage: 2/3\n\n${range(26, 50)}`);
    assert.equal(await call(client, 'search_pdf_go_page', { search_id: id, page_number: 3 }),
      `Search ID: ${id}\nPattern: NEEDLE\nTotal matches: 60\nPage: 3/3\n\n${range(51, 60)}`);
    assert.equal(await call(client, 'search_pdf_next_page', { search_id: id }), 'Already on last page (3/3)');
    assert.equal(await call(client, 'search_pdf_go_page', { search_id: id, page_number: 0 }),
      'Error: Page number 0 is out of range (1-3)');
    assert.equal(await call(client, 'search_pdf_prev_page', { search_id: id }),
      `Search ID: ${id}\nPattern: NEEDLE\nTotal matches: 60\nPage: 2/3\n\n${range(26, 50)}`);
    const info = await call(client, 'search_pdf_info', { search_id: id });
    assert.match(info, new RegExp(`^Search Session Information:\\nSearch ID: ${id}\\nPDF Path: docs/many.pdf\\n` +
      'Pattern: NEEDLE\\nTotal matches: 60\\nCurrent page: 2/3\\nResults per page: 25\\n' +
      'Last accessed: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\n$'));
    const warned = await call(client, 'search_pdf_content', { pdf_file_path: 'docs/three.pdf', pattern: 'tart', page_size: 99 });
    assert.match(warned, /^Warning: Page size 99 is out of range \(10-50\)\. Using default value 10\.\nSearch ID: [0-9a-f]{8}\n/);
    assert.equal(await call(client, 'search_pdf_prev_page', { search_id: 'nope' }),
      "Error: Search session 'nope' not found or expired");
    // Upstream drops idle sessions only when a new search finds more than 20
    // stored: past its TTL (2 s here) a session still answers until then.
    const warnedId = /Search ID: ([0-9a-f]{8})/.exec(warned)[1];
    await sleep(2500);
    assert.match(await call(client, 'search_pdf_info', { search_id: warnedId }), /^Search Session Information:/);
    for (let i = 0; i < 21; i++) await call(client, 'search_pdf_content', { pdf_file_path: 'docs/plain.pdf', pattern: 'only' });
    assert.equal(await call(client, 'search_pdf_next_page', { search_id: id }),
      `Error: Search session '${id}' not found or expired`);
  });

  test('hostile PDFs: answers, a healthy sandbox, no helper left', async () => {
    const expected = {
      'nested-arrays.pdf': 'PDF total pages: 1\nSpecified page range (1-1) has no extractable text content.',
      'nested-dicts.pdf': 'PDF total pages: 1\nSpecified page range (1-1) has no extractable text content.',
      // The helper's RLIMIT_AS answers in release builds; sanitizer builds
      // (scripts/test.sh) cannot set it, and the sandbox's memory cgroup or
      // the sanitizer's allocator ends the helper instead.
      'inflate-bomb.pdf': new RegExp('^Error processing PDF: (the PDF needs more memory than the helper may use|' +
        'reading the PDF was stopped: the helper was killed \\(its CPU time or the sandbox\'s memory ran out\\)|' +
        'the PDF could not be read: the helper (crashed \\(SIG[A-Z]+\\)|failed \\(exit status \\d+\\)))$'),
      'truncated.pdf': `Error processing PDF: ${UNREADABLE}`,
      'truncated-stream.pdf': `Error processing PDF: ${UNREADABLE}`,
      'xref-loop.pdf': 'PDF total pages: 1\nExtracted page range: 1-1\n\n=== Page 1 ===\nLoop\n',
      'page-tree-cycle.pdf': 'PDF total pages: 0\nSpecified page range (0-0) has no extractable text content.',
      'huge-page-tree.pdf': 'PDF total pages: 200000\nSpecified page range (1-1) has no extractable text content.',
      'really-a-zip.pdf': `Error processing PDF: ${UNREADABLE}`,
    };
    for (const [name, want] of Object.entries(expected)) {
      const got = await call(client, 'read_pdf_pages', { pdf_file_path: `hostile/${name}` });
      if (want instanceof RegExp) assert.match(got, want, name);
      else assert.equal(got, want, name);
      // The sandbox still answers, and no helper outlives its call.
      assert.equal(await call(client, 'get_pdf_info', { pdf_file_path: 'docs/plain.pdf' }),
        'PDF file information:\nTotal pages: 1\n', `after ${name}`);
      assert.deepEqual(helperPids(), [], `after ${name}`);
    }
    for (const name of Object.keys(expected)) {
      const merged = await call(client, 'merge_pdfs', { pdf_paths: [`hostile/${name}`], output_path: 'hostile-out.pdf' });
      assert.match(merged, /^(Successfully merged 1 PDFs into 'hostile-out.pdf'\nTotal pages: \d+|Error reading PDF 'hostile\/.*': .+|Error merging PDFs: .+)$/, name);
      const found = await call(client, 'search_pdf_content', { pdf_file_path: `hostile/${name}`, pattern: 'A' });
      assert.match(found, /^(Search ID: |No matches found for pattern: A$|Error: Could not extract text from PDF or PDF is empty$|Error searching PDF: )/, name);
    }
    assert.deepEqual(helperPids(), []);
  });
});

describe('pdf-tools@klavis through sandboxd', () => {
  let sd;
  let tmp;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-pdf-klavis-'));
    const file = settingsFile(tmp, 'settings.json', { 'pdf-tools': { variant: 'klavis' } });
    sd = await startSandboxd({ extraArgs: ['--server-settings', file] });
  });
  after(async () => {
    await sd?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('tools/list equals the variant capture; the three tools', async () => {
    const sandbox = await sd.api.acquire(['pdf-tools']);
    await sd.api.uploadAndInitialize(sandbox.local_sandbox_id, archive(seedFiles()));
    const client = await connectMcp(sandbox.servers[0].mcp_server_url);
    try {
      assert.deepEqual(client.getServerVersion(), { name: 'pdf-tools-mcp-server', version: '1.23.2' });
      const { tools } = await client.listTools();
      const ref = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'variants', 'pdf-tools@klavis.json'), 'utf8'));
      assert.deepEqual(schemaView(tools), schemaView(ref.tools));
      const text = async (name, args) => {
        const r = await client.callTool({ name, arguments: args });
        assert.equal(r.isError, undefined, JSON.stringify(r));
        return r.content[0].text;
      };
      assert.deepEqual(JSON.parse(await text('pdf_tools_read_pdf', { file_path: 'docs/three.pdf' })), {
        file_path: 'docs/three.pdf', num_pages: 3,
        metadata: { title: 'Fruit', author: 'Ada', subject: '', creator: '', producer: '', creation_date: 'D:20240102030405Z' },
        pages: [{ page_number: 1, text: 'Alpha one\napple pie\n' }, { page_number: 2, text: 'Beta two\n' },
          { page_number: 3, text: 'Gamma three\nApple tart\n' }],
      });
      assert.equal(await text('pdf_tools_get_pdf_info', { file_path: 'docs/plain.pdf' }),
        '{\n  "file_path": "docs/plain.pdf",\n  "num_pages": 1,\n  "metadata": {},\n  "page_sizes": [\n    {\n' +
        '      "page": 1,\n      "width": 612.0,\n      "height": 792.0\n    }\n  ],\n  "is_encrypted": false\n}');
      assert.equal(await text('pdf_tools_get_pdf_info', { file_path: 'missing.pdf' }),
        '{\n  "error": "File not found: missing.pdf"\n}');
      assert.equal(await text('pdf_tools_read_pdf', { file_path: '/etc/passwd' }),
        '{\n  "error": "Unexpected error: Access denied: /etc/passwd is outside workspace directory"\n}');
      assert.equal(await text('pdf_tools_read_pdf', { file_path: 'notes.txt' }),
        `{\n  "error": "Failed to read PDF: ${UNREADABLE}"\n}`);
      assert.equal(await text('pdf_tools_read_pdf', { file_path: '' }), 'Error: file_path parameter is required');
      assert.equal(await text('pdf_tools_extract_pages', { input_file: 'docs/three.pdf', output_file: 'new/dir/two.pdf', page_numbers: [2, 5] }),
        '{\n  "error": "Invalid page number 5. PDF has 3 pages."\n}');
      assert.equal(await text('pdf_tools_extract_pages', { input_file: 'docs/three.pdf', output_file: 'new/dir/two.pdf', page_numbers: [2] }),
        '{\n  "success": true,\n  "output_file": "new/dir/two.pdf",\n  "pages_extracted": 1,\n' +
        '  "message": "Successfully extracted 1 pages to new/dir/two.pdf"\n}');
      const invalid = await client.callTool({ name: 'pdf_tools_extract_pages', arguments: { input_file: 'a' } });
      assert.equal(invalid.isError, true);
      assert.equal(invalid.content[0].text, "Input validation error: 'output_file' is a required property");
      const files = readTarGzFiles(await sd.api.dump(sandbox.local_sandbox_id));
      const out = path.join(tmp, 'two.pdf');
      fs.writeFileSync(out, files['new/dir/two.pdf']);
      assert.ok((await qpdfCheck(out)).ok);
      assert.equal(await pdftotext(out), 'Beta two\n\n\f');
    } finally {
      await client.close();
    }
    await sd.api.release(sandbox.local_sandbox_id);
  });
});
