// One pass over the 14 tools of the filesystem server, with the exact results
// upstream @modelcontextprotocol/server-filesystem 2026.8.31 gives.
//
// The same functions run against sandboxd's filesystem server (root "/data",
// over MCP Streamable HTTP) and against the upstream server itself (root = a
// temp dir, over stdio), so the expected values below are checked against
// upstream on every run and cannot drift from it.
//
// Where upstream's output follows readdir order (list_directory, directory_tree,
// search_files) the order is filesystem-dependent, so those are compared
// order-insensitively; everything else is compared byte for byte.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { REFERENCE_DIR } from './sandboxd.mjs';

export const REFERENCE = JSON.parse(fs.readFileSync(path.join(REFERENCE_DIR, 'tools', 'filesystem.json'), 'utf8'));

/** mtime of every seeded file (2023-11-14T22:13:20Z). */
export const SEED_MTIME = 1_700_000_000;

// A 1x1 PNG.
const PIXEL_PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const SEED_FILES = {
  'notes.txt': 'line1\nline2\nline3\nline4\nline5\n',
  'docs/readme.md': '# Readme\nSeeded by the MCP tests.\n',
  'docs/guide.md': '# Guide\n1. acquire\n2. initialize\n3. release\n',
  'src/app.js': "function greet(name) {\n  return 'hi ' + name;\n}\n",
  'pixel.png': Buffer.from(PIXEL_PNG_B64, 'base64'),
};

/** What the workspace holds after runFilesystemTools (regular files only). */
export const FINAL_FILES = {
  'notes.txt': SEED_FILES['notes.txt'],
  'docs/readme.md': SEED_FILES['docs/readme.md'],
  'docs/guide.md': SEED_FILES['docs/guide.md'],
  'src/app.js': "function greet(name) {\n  return 'hello ' + name;\n}\n",
  'pixel.png': SEED_FILES['pixel.png'],
  'archive/2024/draft.txt': 'written over MCP\n',
};

// Node's Date#toString, e.g. "Tue Nov 14 2023 22:13:20 GMT+0000 (Coordinated Universal Time)".
const JS_DATE_RE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4} \(.+\)$/;
const UTC_SEED_MTIME = 'Tue Nov 14 2023 22:13:20 GMT+0000 (Coordinated Universal Time)';

/**
 * A JSON Schema without its human `description` strings (the reference removed
 * them and the project writes its own); properties *named* description stay.
 */
export function stripDescriptions(schema) {
  if (Array.isArray(schema)) return schema.map(stripDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description' && typeof v === 'string') continue;
    if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, stripDescriptions(sub)]));
    } else {
      out[k] = stripDescriptions(v);
    }
  }
  return out;
}

/** Asserts the tools/list result against tools/filesystem.json. */
export function checkToolList(tools) {
  assert.deepEqual(tools.map((t) => t.name), REFERENCE.tools.map((t) => t.name), 'tool names and order');
  for (const [i, ref] of REFERENCE.tools.entries()) {
    const tool = tools[i];
    assert.deepEqual(stripDescriptions(tool.inputSchema), ref.inputSchema, `${ref.name}: inputSchema`);
    assert.deepEqual(stripDescriptions(tool.outputSchema), ref.outputSchema, `${ref.name}: outputSchema`);
    assert.deepEqual(tool.annotations, ref.annotations, `${ref.name}: annotations`);
    assert.equal(typeof tool.description, 'string', `${ref.name}: description`);
    assert.ok(tool.description.trim().length > 0, `${ref.name}: empty description`);
  }
}

/** {content: [text block], structuredContent: {content: text}}: the shape of every text tool. */
function textResult(text) {
  return { content: [{ type: 'text', text }], structuredContent: { content: text } };
}

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}(${JSON.stringify(args)}) failed: ${JSON.stringify(result.content)}`);
  return result;
}

/** Calls `name` and asserts the exact result. */
async function expectText(client, name, args, text) {
  assert.deepEqual(await call(client, name, args), textResult(text), `${name}(${JSON.stringify(args)})`);
}

/** Calls `name` and returns its text after checking the text-tool shape. */
async function getText(client, name, args) {
  const result = await call(client, name, args);
  assert.equal(result.content.length, 1, `${name}: one content block`);
  assert.equal(result.content[0].type, 'text', `${name}: text block`);
  const { text } = result.content[0];
  assert.deepEqual(result, textResult(text), `${name}: result shape`);
  return text;
}

function sortTree(nodes) {
  return nodes
    .map((n) => (n.children ? { ...n, children: sortTree(n.children) } : n))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function sizeRow(kind, name, size) {
  // upstream: `${kind} ${name.padEnd(30)} ${kind === '[DIR]' ? '' : formatSize(size).padStart(10)}`
  return `${kind} ${name.padEnd(30)} ${size === undefined ? '' : `${size} B`.padStart(10)}`;
}

/**
 * Calls each of the 14 tools once (in an order that makes every result
 * predictable) on a workspace seeded with SEED_FILES at `root`.
 * `opts.utc`: the server runs with TZ=UTC, so get_file_info's "modified" is exact.
 */
export async function runFilesystemTools(client, root, opts = {}) {
  const { utc = true } = opts;
  const p = (rel) => `${root}/${rel}`;

  await expectText(client, 'list_allowed_directories', {}, `Allowed directories:\n${root}`);

  await expectText(client, 'read_file', { path: p('notes.txt') }, SEED_FILES['notes.txt']);

  await expectText(client, 'read_text_file', { path: p('notes.txt'), head: 2 }, 'line1\nline2');

  const image = { type: 'image', data: PIXEL_PNG_B64, mimeType: 'image/png' };
  assert.deepEqual(await call(client, 'read_media_file', { path: p('pixel.png') }), {
    content: [image],
    structuredContent: { content: [image] },
  }, 'read_media_file');

  await expectText(client, 'read_multiple_files', { paths: [p('docs/readme.md'), p('docs/guide.md')] },
    `${p('docs/readme.md')}:\n${SEED_FILES['docs/readme.md']}\n` +
    '\n---\n' +
    `${p('docs/guide.md')}:\n${SEED_FILES['docs/guide.md']}\n`);

  await expectText(client, 'write_file', { path: p('draft.txt'), content: FINAL_FILES['archive/2024/draft.txt'] },
    `Successfully wrote to ${p('draft.txt')}`);

  await expectText(client, 'edit_file', {
    path: p('src/app.js'),
    edits: [{ oldText: "return 'hi ' + name;", newText: "return 'hello ' + name;" }],
  },
  '```diff\n' +
    `Index: ${p('src/app.js')}\n` +
    '===================================================================\n' +
    `--- ${p('src/app.js')}\toriginal\n` +
    `+++ ${p('src/app.js')}\tmodified\n` +
    '@@ -1,3 +1,3 @@\n' +
    ' function greet(name) {\n' +
    "-  return 'hi ' + name;\n" +
    "+  return 'hello ' + name;\n" +
    ' }\n' +
    '```\n\n');

  await expectText(client, 'create_directory', { path: p('archive/2024') },
    `Successfully created directory ${p('archive/2024')}`);

  await expectText(client, 'move_file', { source: p('draft.txt'), destination: p('archive/2024/draft.txt') },
    `Successfully moved ${p('draft.txt')} to ${p('archive/2024/draft.txt')}`);

  // readdir order: compare the set of lines.
  const listing = await getText(client, 'list_directory', { path: p('docs') });
  assert.deepEqual(listing.split('\n').sort(), ['[FILE] guide.md', '[FILE] readme.md'], 'list_directory');

  const png = SEED_FILES['pixel.png'].length;
  const notes = Buffer.byteLength(SEED_FILES['notes.txt']);
  await expectText(client, 'list_directory_with_sizes', { path: root }, [
    sizeRow('[DIR]', 'archive'),
    sizeRow('[DIR]', 'docs'),
    sizeRow('[FILE]', 'notes.txt', notes),
    sizeRow('[FILE]', 'pixel.png', png),
    sizeRow('[DIR]', 'src'),
    '',
    'Total: 2 files, 3 directories',
    `Combined size: ${notes + png} B`,
  ].join('\n'));

  // readdir order inside each level: compare sorted, and the text must be the
  // 2-space pretty JSON of what it says.
  const treeText = await getText(client, 'directory_tree', { path: root, excludePatterns: ['pixel.png'] });
  const tree = JSON.parse(treeText);
  assert.equal(treeText, JSON.stringify(tree, null, 2), 'directory_tree: 2-space JSON');
  assert.deepEqual(sortTree(tree), [
    { name: 'archive', type: 'directory', children: [
      { name: '2024', type: 'directory', children: [{ name: 'draft.txt', type: 'file' }] },
    ] },
    { name: 'docs', type: 'directory', children: [
      { name: 'guide.md', type: 'file' },
      { name: 'readme.md', type: 'file' },
    ] },
    { name: 'notes.txt', type: 'file' },
    { name: 'src', type: 'directory', children: [{ name: 'app.js', type: 'file' }] },
  ], 'directory_tree');

  const found = await getText(client, 'search_files', { path: root, pattern: '**/*.md' });
  assert.deepEqual(found.split('\n').sort(), [p('docs/guide.md'), p('docs/readme.md')], 'search_files');

  const info = await getText(client, 'get_file_info', { path: p('notes.txt') });
  const lines = info.split('\n');
  assert.deepEqual(lines.map((l) => l.slice(0, l.indexOf(': '))),
    ['size', 'created', 'modified', 'accessed', 'isDirectory', 'isFile', 'permissions'], 'get_file_info keys');
  const value = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]));
  assert.equal(value.size, String(notes));
  for (const k of ['created', 'modified', 'accessed']) assert.match(value[k], JS_DATE_RE, `get_file_info ${k}`);
  if (utc) assert.equal(value.modified, UTC_SEED_MTIME, 'get_file_info modified = seeded mtime');
  assert.equal(value.isDirectory, 'false');
  assert.equal(value.isFile, 'true');
  assert.equal(value.permissions, '644');
}
