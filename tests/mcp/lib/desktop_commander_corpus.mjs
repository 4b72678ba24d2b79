// The seed tree and call corpus of differential_desktop_commander.test.mjs:
// the same calls, in order, against sandboxd's desktop-commander (workspace
// /data) and upstream 0.2.10 over stdio (workspace <tmp>/upstream/data, HOME
// <tmp>/upstream/root, so that removing "<tmp>/upstream" from its results
// gives the sandbox's paths: /data/…, /root/…).
//
// Every tool's input schema is the same in 0.2.7 (what sandboxd implements)
// and 0.2.10 (what npm has); the corpus avoids the behaviours that changed
// between the two (read_process_output of an ended process, get_config's
// systemInfo.docker), which the golden cases of the unit tests cover.
//
// Placeholders in arguments: ROOT (the side's workspace), PID (the PID the
// side's latest start_process reported).

import assert from 'node:assert/strict';

import { PIXEL_PNG, bytes } from './seed_bytes.mjs';

export const ROOT = '@ROOT@';
export const PID = '@PID@';
const R = (rel = '') => (rel ? `${ROOT}/${rel}` : ROOT);

export const SEED_MTIME = 1_700_000_000;

/** 11 MiB of numbered lines: past upstream's 10 MiB threshold for its large-file strategies. */
const BIG_LOG = Array.from({ length: 360448 }, (_, i) => `${String(i).padStart(8, '0')} ${'y'.repeat(22)}\n`).join('');

const LINES = Array.from({ length: 1500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

export const SEED_FILES = {
  'hello.txt': 'hello world\nsecond line\nthird line\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'cr.txt': 'a\rb\rc',
  'noeol.txt': 'x\ny\nz',
  'empty.txt': '',
  'lines.txt': LINES,
  'utf8.txt': Array.from({ length: 40 }, (_, i) => `日本語 ${i} — ünïcödé 😀`).join('\n'),
  'latin1.txt': Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1'),
  'binary.bin': Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]), bytes(600, 3)]),
  'pixel.png': PIXEL_PNG,
  'doc.pdf': '%PDF-1.4\nnot really a pdf\n',
  'big.log': BIG_LOG,
  'dir/a.md': '# A\nhello from a\n',
  'dir/sub/b.md': 'b says Hello\nand goodbye\n',
  'dir/.hidden/h.txt': 'hello hidden\n',
  'dir/node_modules/m.js': 'const hello = 1;\n',
  'code/app.js': 'function greet(name) {\n  return "hello " + name;\n}\n\nfunction bye() {\n  return 2;\n}\n',
  'code/util.ts': 'export const HELLO = "world";\n// arrow -> here\n',
  'code/README.md': 'Hello README\n',
  'edit/one.txt': 'alpha\nbeta\ngamma\nbeta\n',
  'edit/crlf.txt': 'first line\r\nsecond line\r\nthird line\r\n',
  'edit/fuzzy.js': 'function foo() {\n  return 1;\n}\nfunction bar() {\n  return 2;\n}\n',
  'edit/many.txt': Array.from({ length: 60 }, (_, i) => `row ${i}`).join('\n') + '\n',
  'move/src.txt': 'to be moved\n',
  'move/over.txt': 'old destination\n',
};

const call = (tool, args) => ({ tool, args });
/** A call where sandboxd deliberately differs; check(ours, upstream) asserts what each does. */
const deliberate = (c, why, check) => ({ ...c, deliberate: { why, check } });

function errorText(outcome) {
  const r = outcome.result;
  if (!r || !r.isError) throw new Error(`expected an error result, got ${JSON.stringify(outcome)}`);
  return r.content[0].text;
}
function okText(outcome) {
  const r = outcome.result;
  if (!r || r.isError) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return r.content[0].text;
}

export const CASES = [
  { name: 'tools/list', special: 'tools/list' },
  {
    name: 'read_file: windows of lines and their status lines',
    calls: [
      call('read_file', { path: R('hello.txt') }),
      call('read_file', { path: R('hello.txt'), offset: 1, length: 1 }),
      call('read_file', { path: R('hello.txt'), offset: -2 }),
      call('read_file', { path: R('hello.txt'), offset: -10, length: 1 }),
      call('read_file', { path: R('noeol.txt'), offset: -1 }),
      call('read_file', { path: R('crlf.txt') }),
      call('read_file', { path: R('cr.txt') }),
      call('read_file', { path: R('empty.txt') }),
      call('read_file', { path: R('lines.txt') }),
      call('read_file', { path: R('lines.txt'), offset: 1495 }),
      call('read_file', { path: R('lines.txt'), offset: 5000, length: 3 }),
      call('read_file', { path: R('lines.txt'), offset: 3, length: 0 }),
      call('read_file', { path: R('lines.txt'), offset: 3, length: -2 }),
      call('read_file', { path: R('lines.txt'), offset: 1.5, length: 2.5 }),
      call('read_file', { path: R('lines.txt'), offset: -1.5 }),
      call('read_file', { path: R('utf8.txt'), offset: 38 }),
      call('read_file', { path: 'hello.txt', length: 1 }),
    ],
  },
  {
    name: 'read_file: large files, binary files, images, failures',
    calls: [
      call('read_file', { path: R('big.log'), offset: -3 }),
      call('read_file', { path: R('big.log'), offset: -150, length: 1 }),
      call('read_file', { path: R('big.log'), offset: 200000, length: 2 }),
      call('read_file', { path: R('big.log'), offset: 700, length: 2 }),
      call('read_file', { path: R('big.log'), length: 2 }),
      call('read_file', { path: R('binary.bin') }),
      call('read_file', { path: R('latin1.txt') }),
      call('read_file', { path: R('doc.pdf') }),
      call('read_file', { path: R('pixel.png') }),
      call('read_file', { path: R('dir') }),
      call('read_file', { path: R('missing.txt') }),
      call('read_file', { path: R('hello.txt/x') }),
      call('read_file', { path: '/etc/passwd' }),
      call('read_file', { path: `${ROOT}2/file.txt` }),
      call('read_file', { path: R('../etc/passwd') }),
      call('read_file', { path: '~/notes.txt' }),
      call('read_file', { path: '' }),
      deliberate(call('read_file', { path: 'http://example.com/', isUrl: true }),
        'the sandbox has no network: the fetch fails with a reason of our own',
        (ours, up) => {
          const prefix = 'Error: Failed to fetch URL: request to http://example.com/ failed, reason: ';
          if (!errorText(ours).startsWith(prefix) || !errorText(up).startsWith(prefix)) {
            throw new Error(`unexpected: ${errorText(ours)} / ${errorText(up)}`);
          }
        }),
    ],
  },
  {
    name: 'read_multiple_files',
    calls: [
      call('read_multiple_files', { paths: [R('hello.txt'), R('pixel.png'), R('missing.txt'), '/etc/hostname', R('binary.bin'), R('noeol.txt')] }),
      call('read_multiple_files', { paths: [] }),
    ],
  },
  {
    name: 'write_file, create_directory, list_directory, move_file',
    calls: [
      call('write_file', { path: R('new/out.txt'), content: 'x' }),
      call('create_directory', { path: R('new/deeper/still') }),
      call('create_directory', { path: R('new') }),
      call('create_directory', { path: R('hello.txt') }),
      call('create_directory', { path: R('hello.txt/sub') }),
      call('write_file', { path: R('new/out.txt'), content: 'first\nsecond' }),
      call('write_file', { path: R('new/out.txt'), content: '\nthird\n', mode: 'append' }),
      call('read_file', { path: R('new/out.txt') }),
      call('write_file', { path: R('new/long.txt'), content: Array.from({ length: 51 }, (_, i) => `l${i}`).join('\n') }),
      call('write_file', { path: R('new'), content: 'x' }),
      call('write_file', { path: '/tmp/escape.txt', content: 'x' }),
      call('list_directory', { path: R() }),
      call('list_directory', { path: R('new') }),
      call('list_directory', { path: R('new/deeper/still') }),
      call('list_directory', { path: R('hello.txt') }),
      call('list_directory', { path: R('nothing') }),
      call('move_file', { source: R('move/src.txt'), destination: R('move/renamed.txt') }),
      call('move_file', { source: R('move/renamed.txt'), destination: R('move/over.txt') }),
      call('move_file', { source: R('move/gone.txt'), destination: R('move/x.txt') }),
      call('move_file', { source: R('move/over.txt'), destination: R('move/no/such/dir.txt') }),
      call('move_file', { source: R('move/over.txt'), destination: '/tmp/out.txt' }),
      call('list_directory', { path: R('move') }),
    ],
  },
  {
    name: 'get_file_info',
    calls: [
      call('get_file_info', { path: R('hello.txt') }),
      call('get_file_info', { path: R('dir') }),
      call('get_file_info', { path: R('pixel.png') }),
      call('get_file_info', { path: R('empty.txt') }),
      call('get_file_info', { path: R('missing') }),
    ],
  },
  {
    name: 'search_files',
    calls: [
      call('search_files', { path: R(), pattern: '.MD' }),
      call('search_files', { path: R('dir'), pattern: 'hidden' }),
      call('search_files', { path: R(), pattern: 'no-such-name' }),
      call('search_files', { path: '/etc', pattern: 'passwd' }),
      call('search_files', { path: R('hello.txt'), pattern: 'hello' }),
    ],
  },
  {
    name: 'search_code',
    calls: [
      call('search_code', { path: R('code'), pattern: 'hello' }),
      call('search_code', { path: R('dir'), pattern: 'hello' }),
      call('search_code', { path: R('dir'), pattern: 'hello', includeHidden: true }),
      call('search_code', { path: R('code'), pattern: 'hello', ignoreCase: false }),
      call('search_code', { path: R('code'), pattern: 'return', contextLines: 1 }),
      call('search_code', { path: R('code'), pattern: 'e', filePattern: '*.md' }),
      call('search_code', { path: R('code'), pattern: 'function', maxResults: 1 }),
      call('search_code', { path: R('code/app.js'), pattern: 'greet' }),
      call('search_code', { path: R('code'), pattern: 'zzz-nothing' }),
      call('search_code', { path: R('code'), pattern: '(' }),
      call('search_code', { path: R('code'), pattern: '-> here' }),
      call('search_code', { path: '/etc', pattern: 'root' }),
    ],
  },
  {
    name: 'edit_block',
    calls: [
      call('edit_block', { file_path: R('edit/one.txt'), old_string: 'alpha', new_string: 'ALPHA' }),
      call('edit_block', { file_path: R('edit/one.txt'), old_string: 'beta', new_string: 'BETA' }),
      call('edit_block', { file_path: R('edit/one.txt'), old_string: 'beta', new_string: 'BETA', expected_replacements: 2 }),
      call('edit_block', { file_path: R('edit/crlf.txt'), old_string: 'second line\nthird', new_string: '2nd\nline\n3rd' }),
      call('edit_block', { file_path: R('edit/fuzzy.js'), old_string: 'function baz() {\n  return 2;\n}', new_string: 'x' }),
      call('edit_block', { file_path: R('edit/fuzzy.js'), old_string: 'completely different text here', new_string: 'x' }),
      call('edit_block', { file_path: R('edit/many.txt'), old_string: 'row 1\n', new_string: Array.from({ length: 55 }, (_, i) => `n${i}`).join('\n') + '\n' }),
      call('edit_block', { file_path: R('edit/one.txt'), old_string: '', new_string: 'x' }),
      call('edit_block', { file_path: R('edit/missing.txt'), old_string: 'a', new_string: 'b' }),
      call('edit_block', { file_path: R('pixel.png'), old_string: 'a', new_string: 'b' }),
      call('read_file', { path: R('edit/crlf.txt') }),
    ],
  },
  {
    name: 'start_process and friends',
    calls: [
      call('start_process', { command: 'echo hello; sleep 0.3', timeout_ms: 3000 }),
      call('start_process', { command: 'sleep 5', timeout_ms: 300 }),
      call('list_sessions', {}),
      call('read_process_output', { pid: PID, timeout_ms: 300 }),
      call('force_terminate', { pid: PID }),
      call('force_terminate', { pid: 99999999 }),
      deliberate(call('read_process_output', { pid: 99999999 }),
        '0.2.9 reworded the unknown-PID answer; sandboxd keeps 0.2.7\'s',
        (ours, up) => {
          assert.equal(errorText(ours), 'No active session found for PID <pid3>');
          assert.equal(errorText(up), 'No session found for PID <pid3>');
        }),
      call('interact_with_process', { pid: 99999999, input: 'x' }),
      call('start_process', { command: '/usr/bin/python3 -i -q', timeout_ms: 5000 }),
      call('interact_with_process', { pid: PID, input: '1+1' }),
      call('interact_with_process', { pid: PID, input: 'print("a")', wait_for_prompt: false }),
      call('read_process_output', { pid: PID, timeout_ms: 2000 }),
      call('interact_with_process', { pid: PID, input: 'undefined_name' }),
      call('force_terminate', { pid: PID }),
      call('start_process', { command: 'sudo ls', timeout_ms: 1000 }),
      call('start_process', { command: 'echo hi | SUDO tee x', timeout_ms: 1000 }),
      call('start_process', { command: 'true && dd if=/dev/zero of=x count=1', timeout_ms: 1000 }),
      call('start_process', { command: 'echo $(mkfs x)', timeout_ms: 1000 }),
      call('start_process', { command: 'printf "%s\\n" done; exit 3', timeout_ms: 3000, shell: '/bin/bash' }),
      call('kill_process', { pid: 99999999 }),
      call('kill_process', { pid: 1.5 }),
    ],
  },
  {
    name: 'more process behaviour: stderr, prompts, late output, ended sessions',
    calls: [
      call('start_process', { command: 'echo err 1>&2; sleep 0.3', timeout_ms: 3000 }),
      call('start_process', { command: "printf '$ '; sleep 3", timeout_ms: 3000 }),
      call('list_sessions', {}),
      call('force_terminate', { pid: PID }),
      call('start_process', { command: 'sleep 0.6; echo later; sleep 5', timeout_ms: 200 }),
      call('read_process_output', { pid: PID, timeout_ms: 2000 }),
      call('read_process_output', { pid: PID, timeout_ms: 300 }),
      call('force_terminate', { pid: PID }),
      call('start_process', { command: 'echo quick', timeout_ms: 2000 }),
      call('interact_with_process', { pid: PID, input: 'too late' }),
      call('start_process', { command: 'cat', timeout_ms: 300 }),
      call('interact_with_process', { pid: PID, input: 'echoed back', timeout_ms: 600 }),
      call('interact_with_process', { pid: PID, input: 'no wait\n', wait_for_prompt: false }),
      call('read_process_output', { pid: PID, timeout_ms: 1000 }),
      call('force_terminate', { pid: PID }),
    ],
  },
  {
    name: 'symbolic links: inside followed, outside refused (upstream follows them)',
    calls: [
      call('start_process', { command: 'ln -s /etc/hostname link_out && ln -s hello.txt link_in && ln -s /etc outdir && echo ok; sleep 0.3', timeout_ms: 3000 }),
      call('read_file', { path: R('link_in') }),
      call('get_file_info', { path: R('link_in') }),
      call('edit_block', { file_path: R('link_in'), old_string: 'third line', new_string: 'third line (via link)' }),
      deliberate(call('read_file', { path: R('link_out') }),
        'a link to a file outside the workspace is refused; upstream reads the host file',
        (ours, up) => {
          assert.equal(errorText(ours), 'Error: Path not allowed: /data/link_out. Must be within one of these directories: /data');
          okText(up);
        }),
      deliberate(call('list_directory', { path: R('outdir') }),
        'a link to a directory outside the workspace is refused; upstream lists the host directory',
        (ours, up) => {
          assert.equal(errorText(ours), 'Error: Path not allowed: /data/outdir. Must be within one of these directories: /data');
          assert.match(okText(up), /\[FILE\] hostname/);
        }),
      deliberate(call('search_files', { path: R(), pattern: 'link' }),
        'entries whose real path is outside are skipped; upstream lists them',
        (ours, up) => {
          assert.equal(okText(ours), '/data/link_in');
          assert.equal(okText(up), '/data/link_in\n/data/link_out');
        }),
      call('start_process', { command: 'rm link_out outdir && echo removed; sleep 0.3', timeout_ms: 3000 }),
    ],
  },
  {
    name: 'allowedDirectories: the workspace is the limit',
    calls: [
      call('set_config_value', { key: 'allowedDirectories', value: [] }),
      call('read_file', { path: R('noeol.txt') }),
      deliberate(call('read_file', { path: '/etc/hostname' }),
        'an empty allowedDirectories means the whole workspace, not the whole file system',
        (ours, up) => {
          assert.equal(errorText(ours), 'Error: Path not allowed: /etc/hostname. Must be within one of these directories: /data');
          okText(up);
        }),
      call('set_config_value', { key: 'allowedDirectories', value: `${ROOT}/dir, ${ROOT}/code` }),
      call('read_file', { path: R('dir/a.md') }),
      call('set_config_value', { key: 'allowedDirectories', value: [R('dir'), R('code')] }),
      call('read_file', { path: R('code/util.ts') }),
      call('list_directory', { path: R() }),
      call('search_code', { path: R(), pattern: 'hello' }),
      call('set_config_value', { key: 'allowedDirectories', value: [R()] }),
      call('edit_block', { file_path: R('edit/one.txt'), old_string: 'BETA', new_string: 'b', expected_replacements: 0 }),
      call('edit_block', { file_path: R('edit/one.txt'), old_string: 'gamma', new_string: 'g', expected_replacements: 1.5 }),
      call('edit_block', { file_path: R('utf8.txt'), old_string: '日本語 7 — ünicode 😀', new_string: 'x' }),
    ],
  },
  {
    name: 'configuration and usage',
    calls: [
      call('get_config', {}),
      call('set_config_value', { key: 'fileWriteLineLimit', value: 2 }),
      call('write_file', { path: R('new/three.txt'), content: 'a\nb\nc' }),
      call('set_config_value', { key: 'fileWriteLineLimit', value: 50 }),
      call('set_config_value', { key: 'fileReadLineLimit', value: 2 }),
      call('read_multiple_files', { paths: [R('lines.txt')] }),
      call('set_config_value', { key: 'fileReadLineLimit', value: 1000 }),
      call('set_config_value', { key: 'blockedCommands', value: '["rm", "sudo"]' }),
      call('start_process', { command: 'rm -f nothing', timeout_ms: 1000 }),
      call('set_config_value', { key: 'blockedCommands', value: 'curl' }),
      call('set_config_value', { key: 'blockedCommands', value: 5 }),
      call('set_config_value', { key: 'customKey', value: { a: [1, 'b'] } }),
      call('set_config_value', { key: 'customKey' }),
      call('set_config_value', { key: 'allowedDirectories', value: [R('dir')] }),
      call('read_file', { path: R('hello.txt') }),
      call('read_file', { path: R('dir/a.md') }),
      call('set_config_value', { key: 'allowedDirectories', value: [R()] }),
      call('get_usage_stats', {}),
      call('give_feedback_to_desktop_commander', {}),
      call('get_config', {}),
    ],
  },
  { name: 'final workspace trees are identical', special: 'tree' },
];

/** Paths the tree comparison skips: none so far. */
export const TREE_IGNORE = [];
