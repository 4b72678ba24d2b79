// The calls the code-runner differential suite sends to both sides
// (upstream mcp-server-code-runner 0.1.7 over stdio, ours in a sandbox), and
// the normalisation of what may legitimately differ: where the code file
// lives and the working directory.
//
// A case is {name, args} (results must be identical after normalise()),
// optionally with `upstream`, upstream's normalised result stated outright
// (checked, so the suite notices if upstream changes); or it adds `deliberate: {why, check(ours, upstream)}` where sandboxd differs on
// purpose (each side's exact text is asserted instead).

import assert from 'node:assert/strict';

/** Every languageId of upstream's table, in its order. */
export const LANGUAGE_IDS = [
  'javascript', 'php', 'python', 'perl', 'perl6', 'ruby', 'go', 'lua', 'groovy', 'powershell', 'bat',
  'shellscript', 'fsharp', 'csharp', 'vbscript', 'typescript', 'coffeescript', 'scala', 'swift', 'julia',
  'crystal', 'ocaml', 'r', 'applescript', 'clojure', 'racket', 'scheme', 'ahk', 'autoit', 'dart', 'haskell',
  'nim', 'lisp', 'kit', 'v', 'sass', 'scss',
];

const MIB = 1024 * 1024;
const py = (code) => ({ code, languageId: 'python' });
const js = (code) => ({ code, languageId: 'javascript' });
const sh = (code) => ({ code, languageId: 'shellscript' });
const pl = (code) => ({ code, languageId: 'perl' });

const result = (text, isError) => (isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] });
const V = 'MCP error -32602: Input validation error: Invalid arguments for tool run-code: ';
const ZOD3_ENUM = `Invalid enum value. Expected ${LANGUAGE_IDS.map((id) => `'${id}'`).join(' | ')}`;
const ZOD4_ENUM = `Invalid option: expected one of ${LANGUAGE_IDS.map((id) => `"${id}"`).join('|')}`;

/** The argument-validation texts: upstream's zod 3 wording vs the MCP core's zod 4 wording. */
const validation = (upstreamText, oursText) => ({
  why: 'argument errors are worded by the MCP core (zod 4 style, as today\'s TypeScript SDK with zod 4); upstream bundles zod 3',
  check(ours, upstream) {
    assert.deepEqual(upstream, result(V + upstreamText, true));
    assert.deepEqual(ours, result(V + oursText, true));
  },
});

export const CASES = [
  // python
  { name: 'python: stdout', args: py("print('hello')\nprint(6 * 7)"), upstream: result('hello\n42\n') },
  { name: 'python: no output', args: py('x = 1') },
  { name: 'python: unicode out', args: py("print('héllo ✓ 😀 ' + chr(0x10FFFF) + ' end')") },
  {
    name: 'python: stderr on a clean exit', args: py("import sys\nprint('out')\nsys.stderr.write('warning\\n')"),
    upstream: result('Stderr: warning\n', true),
  },
  { name: 'python: exit code', args: py('raise SystemExit(3)'), upstream: result('Error: Command failed: python -u "<TMP>/tmp.python"\n', true) },
  { name: 'python: traceback', args: py("def f():\n    return 1/0\nprint('before')\nf()") },
  { name: 'python: syntax error', args: py('def (:') },
  { name: 'python: killed by a signal', args: py('import os, signal\nos.kill(os.getpid(), signal.SIGTERM)') },
  { name: 'python: __file__ and cwd', args: py("import os\nprint(__file__)\nprint(os.getcwd())\nprint(os.path.basename(__file__))") },
  { name: 'python: CRLF source', args: py("a = 1\r\nif a:\r\n    print('crlf')\r\n") },
  { name: 'python: NUL byte in the source', args: py("print('a')\u0000") },
  { name: 'python: lone surrogate in the source', args: py("print('\ud800')") },
  { name: 'python: invalid UTF-8 out', args: py("import sys\nsys.stdout.buffer.write(b'\\xff\\xfeok \\xc3\\xa9 \\xe2\\x82')") },
  { name: 'python: exactly 1 MiB out', args: py(`import sys\nsys.stdout.write('a' * ${MIB})`) },
  {
    name: 'python: 1 MiB + 1 out', args: py(`import sys\nsys.stdout.write('a' * ${MIB + 1})`),
    upstream: result('Error: stdout maxBuffer length exceeded', true),
  },
  { name: 'python: endless output', args: py("while True:\n    print('spam' * 100)") },
  { name: 'python: 1 MiB + 1 on stderr', args: py(`import sys\nsys.stderr.write('e' * ${MIB + 1})`) },
  { name: 'python: stdout and stderr interleaved, exit 1', args: py("import sys\nfor i in range(3):\n    print(i)\n    print('e', i, file=sys.stderr)\nsys.exit(1)") },
  { name: 'python: big source', args: py(`# ${'x'.repeat(200000)}\nprint('big')`) },
  // javascript
  { name: 'javascript: stdout', args: js("console.log('hi', 1 + 2, [1, 2], {a: 1})") },
  { name: 'javascript: __filename, cwd', args: js('console.log(__filename); console.log(process.cwd())') },
  { name: 'javascript: console.error', args: js("console.error('careful'); console.log('out')") },
  { name: 'javascript: thrown error', args: js("function f() { throw new Error('boom') }\nf()") },
  { name: 'javascript: exit code', args: js('process.exitCode = 4') },
  { name: 'javascript: syntax error', args: js('let = ;') },
  { name: 'javascript: async output', args: js("setTimeout(() => console.log('later'), 50); console.log('now')") },
  // shellscript (bash)
  { name: 'shellscript: echo and $0', args: sh('echo "args: $#"; echo "$0"; pwd; printf "%s|" a b c') },
  { name: 'shellscript: exit 3 with stderr', args: sh('echo out; echo err >&2; exit 3') },
  { name: 'shellscript: killed', args: sh('kill -9 $$'), upstream: result('Error: Command failed: bash "<TMP>/tmp.shellscript"\nKilled\n', true) },
  { name: 'shellscript: unknown command', args: sh('no-such-command-here') },
  { name: 'shellscript: pipes and subshells', args: sh('seq 1 5 | paste -sd+ | bc 2>/dev/null || echo $(( 1+2+3+4+5 ))') },
  { name: 'shellscript: binary out', args: sh("printf '\\x00\\x01\\xff\\xfe\\r\\n'") },
  { name: 'shellscript: background job', args: sh('(sleep 0.2; echo late) & echo early; wait') },
  // perl
  { name: 'perl: print', args: pl('my @a = (1..3); print "@a\\n"; printf("%05.1f\\n", 3.14159);') },
  { name: 'perl: die', args: pl('die "boom\\n";') },
  { name: 'perl: die with line', args: pl('print "x\\n";\ndie "boom";') },
  { name: 'perl: warn', args: pl('warn "careful\\n"; print "out\\n";') },
  { name: 'perl: $0', args: pl('print "$0\\n";') },
  // every language: the installed ones run "x", the others fail in /bin/sh
  ...LANGUAGE_IDS.map((id) => ({ name: `${id}: code "x"`, args: { code: 'x', languageId: id } })),
  {
    name: 'php: not installed', args: { code: '<?php echo 1;', languageId: 'php' },
    upstream: result('Error: Command failed: php "<TMP>/tmp.php"\n/bin/sh: 1: php: not found\n', true),
  },
  // arguments
  { name: 'empty code', args: py(''), upstream: result('Code is required.', true) },
  {
    name: 'unknown languageId', args: { code: 'x', languageId: 'cobol' },
    deliberate: validation(`${ZOD3_ENUM}, received 'cobol' at languageId`, `${ZOD4_ENUM} at languageId`),
  },
  {
    name: 'code not a string', args: { code: 5, languageId: 'python' },
    deliberate: validation('Expected string, received number at code', 'Invalid input: expected string, received number at code'),
  },
  {
    name: 'code missing', args: { languageId: 'python' },
    deliberate: validation('Required at code', 'Invalid input: expected string, received undefined at code'),
  },
  {
    name: 'languageId missing', args: { code: 'x' },
    deliberate: validation('Required at languageId', 'Invalid input: expected string, received undefined at languageId'),
  },
  {
    name: 'an unknown argument',
    args: { code: "print('x')", languageId: 'python', timeout: 5 },
    deliberate: {
      why: 'the schema says additionalProperties: false and the MCP core enforces it; upstream\'s zod strips the key',
      check(ours, upstream) {
        assert.deepEqual(upstream, result('x\n'));
        assert.deepEqual(ours, result(`${V}Unrecognized key: "timeout"`, true));
      },
    },
  },
];

/**
 * A result with the side's temp directory and working directory replaced
 * by <TMP> and <CWD>, and the python fallback named as upstream's command.
 * side: {tmp: RegExp matching the code file's directory, cwd: string}.
 */
export function normalise(res, side) {
  const fix = (text) => text
    .replace(side.tmp, '<TMP>')
    .split(side.cwd).join('<CWD>')
    .replace(/python3 -u "<TMP>/g, 'python -u "<TMP>');
  return {
    ...res,
    content: res.content.map((block) => (block.type === 'text' ? { ...block, text: fix(block.text) } : block)),
  };
}
