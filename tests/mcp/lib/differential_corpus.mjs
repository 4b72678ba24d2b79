// The call corpus of differential_filesystem.test.mjs: the same tool calls
// run against sandboxd's filesystem server (root /data) and against upstream
// @modelcontextprotocol/server-filesystem 2026.8.31 (root = a copy of the
// same tree, differential_seed.mjs), and their results must be identical.
//
// Each case is one named subtest; its calls run in order, on both servers,
// and the cases run in the order below (mutating calls too), so both trees
// go through the same changes.

import { NFC_E, NFD_E, R, ROOT } from './differential_seed.mjs';

export { ROOT, SEED_MTIME, writeSeedTree } from './differential_seed.mjs';


/** One call: [tool, arguments] (arguments undefined = none sent). */
const c = (tool, args) => ({ tool, args });

/**
 * A call where sandboxd deliberately differs from upstream: `check(ours,
 * upstream)` asserts both outcomes instead of requiring them equal.
 */
const deliberate = (call, why, check) => ({ ...call, deliberate: { why, check } });

/** Paths the final tree comparison skips, each because of a deliberate() call. */
export const TREE_IGNORE = new Set();

/** The same call with each of several paths. */
const each = (tool, paths, extra = {}) => paths.map((p) => c(tool, { path: p, ...extra }));

/** Paths outside the root: absolute, parent-relative, sibling prefix, Windows, NUL. */
const OUTSIDE = ['/etc/passwd', '../x', `${ROOT}2/x`, `${ROOT}-other/x`, `${ROOT}/../x`, 'C:\\x', 'C:/x', `${ROOT}/a\u0000b`];

/**
 * The cases, in run order. A case is {name, calls}; `special` marks the ones
 * the test runs itself (tools/list, the final tree comparison).
 */
export const CASES = [
  { name: 'tools/list: same tools and schemas (descriptions and titles are ours)', special: 'tools/list' },

  // ---------------------------------------------------------------- list_allowed_directories
  { name: 'list_allowed_directories', calls: [c('list_allowed_directories', {}), c('list_allowed_directories', undefined), c('list_allowed_directories', { extra: 1 })] },

  // ---------------------------------------------------------------- read_text_file / read_file
  { name: 'read_text_file: whole file; read_file (deprecated alias) the same', calls: [
    c('read_text_file', { path: R('notes.txt') }), c('read_file', { path: R('notes.txt') }),
    c('read_file', { path: R('notes.txt'), head: 2 }), c('read_file', { path: R('notes.txt'), tail: 2 }),
  ] },
  { name: 'read_text_file: empty file (whole, head, tail)', calls: [
    c('read_text_file', { path: R('empty.txt') }), c('read_text_file', { path: R('empty.txt'), head: 3 }),
    c('read_text_file', { path: R('empty.txt'), tail: 3 }),
  ] },
  { name: 'read_text_file: head/tail on a file with a trailing newline', calls: [
    c('read_text_file', { path: R('notes.txt'), head: 1 }), c('read_text_file', { path: R('notes.txt'), head: 2 }),
    c('read_text_file', { path: R('notes.txt'), head: 5 }), c('read_text_file', { path: R('notes.txt'), tail: 1 }),
    c('read_text_file', { path: R('notes.txt'), tail: 2 }), c('read_text_file', { path: R('notes.txt'), tail: 6 }),
  ] },
  { name: 'read_text_file: head/tail on a file without a trailing newline', calls: [
    c('read_text_file', { path: R('no-newline.txt'), head: 1 }), c('read_text_file', { path: R('no-newline.txt'), head: 3 }),
    c('read_text_file', { path: R('no-newline.txt'), tail: 1 }), c('read_text_file', { path: R('no-newline.txt'), tail: 2 }),
    c('read_text_file', { path: R('single-line.txt'), head: 1 }), c('read_text_file', { path: R('single-line.txt'), tail: 1 }),
    c('read_text_file', { path: R('only-newlines.txt'), head: 2 }), c('read_text_file', { path: R('only-newlines.txt'), tail: 2 }),
  ] },
  { name: 'read_text_file: head/tail larger than the file', calls: [
    c('read_text_file', { path: R('notes.txt'), head: 100 }), c('read_text_file', { path: R('notes.txt'), tail: 100 }),
    c('read_text_file', { path: R('no-newline.txt'), head: 100 }), c('read_text_file', { path: R('no-newline.txt'), tail: 100 }),
  ] },
  // 1 KiB is upstream's head/tail read size: "é" and a CRLF straddle the
  // chunk boundary from either end (2,048 bytes each). 2025.7.1 decoded each
  // chunk on its own (U+FFFDs, a kept CR) and counted tail lines its own way
  // (fractions rounded up, a negative count reads nothing). read_file: the
  // name both versions have.
  { name: 'read_file: head/tail across the 1 KiB read chunks', calls: [
    c('write_file', { path: R('write/chunk-utf8.txt'), content: `${'a'.repeat(1023)}\u00e9\n${'b'.repeat(1021)}\n` }),
    c('write_file', { path: R('write/chunk-crlf.txt'), content: `${'x'.repeat(1023)}\r\n${'y'.repeat(1022)}\n` }),
    c('read_file', { path: R('write/chunk-utf8.txt'), head: 1 }), c('read_file', { path: R('write/chunk-utf8.txt'), tail: 3 }),
    c('read_file', { path: R('write/chunk-utf8.txt'), tail: 1.5 }), c('read_file', { path: R('write/chunk-utf8.txt'), tail: -1 }),
    c('read_file', { path: R('write/chunk-crlf.txt'), head: 2 }), c('read_file', { path: R('write/chunk-crlf.txt'), tail: 3 }),
  ] },
  { name: 'read_text_file: head=0 / tail=0 read the whole file', calls: [
    c('read_text_file', { path: R('notes.txt'), head: 0 }), c('read_text_file', { path: R('notes.txt'), tail: 0 }),
    c('read_text_file', { path: R('notes.txt'), head: 0, tail: 0 }), c('read_text_file', { path: R('notes.txt'), head: 0, tail: 2 }),
    c('read_text_file', { path: R('notes.txt'), head: 2, tail: 0 }),
  ] },
  { name: 'read_text_file: head and tail together is an error', calls: [
    c('read_text_file', { path: R('notes.txt'), head: 2, tail: 2 }), c('read_file', { path: R('notes.txt'), head: 1, tail: 1 }),
    c('read_text_file', { path: R('missing.txt'), head: 2, tail: 2 }), // a missing file passes path validation
    c('read_text_file', { path: '/etc/passwd', head: 2, tail: 2 }), // path validation comes first
  ] },
  { name: 'read_text_file: negative and fractional head/tail', calls: [
    c('read_text_file', { path: R('notes.txt'), head: -1 }), c('read_text_file', { path: R('notes.txt'), tail: -1 }),
    c('read_text_file', { path: R('notes.txt'), head: 1.5 }), c('read_text_file', { path: R('notes.txt'), tail: 1.5 }),
    c('read_text_file', { path: R('notes.txt'), head: 1e9 }),
  ] },
  { name: 'read_text_file: CRLF and mixed line endings (whole, head, tail)', calls: [
    c('read_text_file', { path: R('crlf.txt') }), c('read_text_file', { path: R('crlf.txt'), head: 2 }),
    c('read_text_file', { path: R('crlf.txt'), tail: 2 }), c('read_text_file', { path: R('mixed-eol.txt') }),
    c('read_text_file', { path: R('mixed-eol.txt'), head: 2 }), c('read_text_file', { path: R('mixed-eol.txt'), tail: 2 }),
    c('read_text_file', { path: R('crlf-big.txt'), head: 120 }), c('read_text_file', { path: R('crlf-big.txt'), tail: 120 }),
  ] },
  { name: 'read_text_file: 2 MiB file whole, head, tail (across 1 KB chunks)', calls: [
    c('read_text_file', { path: R('big.txt') }), c('read_text_file', { path: R('big.txt'), head: 3 }),
    c('read_text_file', { path: R('big.txt'), tail: 3 }), c('read_text_file', { path: R('big.txt'), head: 100 }),
    c('read_text_file', { path: R('big.txt'), tail: 100 }),
  ] },
  { name: 'read_text_file: multi-byte UTF-8, BOM and invalid UTF-8', calls: [
    c('read_text_file', { path: R('utf8.txt') }), c('read_text_file', { path: R('utf8.txt'), head: 40 }),
    c('read_text_file', { path: R('utf8.txt'), tail: 40 }), c('read_text_file', { path: R('bom.txt') }),
    c('read_text_file', { path: R('bom.txt'), head: 1 }), c('read_text_file', { path: R('bom.txt'), tail: 1 }),
    c('read_text_file', { path: R('invalid-utf8.txt') }), c('read_text_file', { path: R('invalid-utf8.txt'), head: 3 }),
    c('read_text_file', { path: R('invalid-utf8.txt'), tail: 3 }),
  ] },
  { name: 'read_text_file: errors (missing, missing parent, directory, through a file)', calls: [
    ...each('read_text_file', [R('missing.txt'), R('nope/missing.txt'), R('project'), R('notes.txt/x'), R('emptydir/x/y')]),
    c('read_file', { path: R('missing.txt') }),
  ] },

  // ---------------------------------------------------------------- names
  { name: 'unicode names: é, 日本語, emoji, NFC and NFD spellings', calls: [
    c('read_text_file', { path: R(`unicode/caf${NFC_E}.txt`) }),
    c('read_text_file', { path: R(`unicode/caf${NFD_E}.txt`) }), // NFD spelling of an NFC name
    c('read_text_file', { path: R(`unicode/nfd-caf${NFD_E}.txt`) }),
    c('read_text_file', { path: R(`unicode/nfd-caf${NFC_E}.txt`) }), // NFC spelling of an NFD name
    c('read_text_file', { path: R('unicode/日本語.txt') }),
    c('read_text_file', { path: R('unicode/emoji-😀.txt') }),
    c('read_text_file', { path: R(`unicode/ambig-${NFC_E}${NFD_E}.txt`) }), // exact match wins
    c('read_text_file', { path: R(`unicode/ambig-${NFC_E}${NFC_E}.txt`) }), // two equivalents: ambiguous
    c('read_text_file', { path: R(`unicode/ambig-${NFD_E}${NFD_E}.txt`) }),
    c('read_text_file', { path: R('unicode/Ünïcødé dir/inner.txt') }),
    c('read_text_file', { path: R('unicode/Ünïcødé dir/'.normalize('NFD') + 'inner.txt') }),
    c('list_directory', { path: R('unicode') }),
    c('get_file_info', { path: R(`unicode/caf${NFD_E}.txt`) }),
    c('search_files', { path: R('unicode'), pattern: '**/*.txt' }),
    c('search_files', { path: R('unicode'), pattern: `caf${NFC_E}.txt` }),
    c('search_files', { path: R('unicode'), pattern: `caf${NFD_E}.txt` }),
    c('directory_tree', { path: R('unicode') }),
  ] },
  { name: 'spaces and quotes in names', calls: [
    c('read_text_file', { path: R('with spaces/a file.txt') }), c('read_text_file', { path: R('with spaces/ leading.txt') }),
    c('read_text_file', { path: R('with spaces/trailing ') }), c('read_text_file', { path: R("with spaces/it's \"quoted\".txt") }),
    c('list_directory', { path: R('with spaces') }), c('list_directory_with_sizes', { path: R('with spaces') }),
    c('read_multiple_files', { paths: [R('with spaces/a file.txt'), R('with spaces/trailing ')] }),
  ] },

  // ---------------------------------------------------------------- read_media_file
  { name: 'read_media_file: images (.png, .PNG, .jpg, .jpeg, .gif, .webp, .bmp, .svg)', calls: each('read_media_file', [
    R('media/pixel.png'), R('media/UPPER.PNG'), R('media/photo.jpg'), R('media/photo.jpeg'), R('media/anim.gif'),
    R('media/img.webp'), R('media/img.bmp'), R('media/vector.svg'),
  ]) },
  { name: 'read_media_file: audio (.mp3, .wav, .ogg, .flac)', calls: each('read_media_file', [
    R('media/tone.mp3'), R('media/beep.wav'), R('media/sound.ogg'), R('media/sound.flac'),
  ]) },
  { name: 'read_media_file: other types are embedded resources (file:// URI)', calls: each('read_media_file', [
    R('media/blob.bin'), R('media/readme.txt'), R('media/noext'), R('media/.png'), R(`media/we#ird %name? ${NFC_E}.dat`),
  ]) },
  { name: 'read_media_file: empty file, relative path, errors', calls: each('read_media_file', [
    R('media/empty.png'), 'media/pixel.png', R('media/missing.png'), R('media'), R('nope/x.png'),
  ]) },

  // ---------------------------------------------------------------- read_multiple_files
  { name: 'read_multiple_files: several files in order', calls: [
    c('read_multiple_files', { paths: [R('notes.txt'), R('no-newline.txt'), R('empty.txt'), R('crlf.txt')] }),
    c('read_multiple_files', { paths: [R('notes.txt')] }),
    c('read_multiple_files', { paths: [R('notes.txt'), R('notes.txt')] }),
  ] },
  { name: 'read_multiple_files: one bad path among good ones', calls: [
    c('read_multiple_files', { paths: [R('notes.txt'), R('missing.txt'), R('no-newline.txt')] }),
    c('read_multiple_files', { paths: [R('project'), '/etc/passwd', R('notes.txt/x'), 'notes.txt', `${ROOT}2/x`] }),
  ] },

  // ---------------------------------------------------------------- list_directory
  { name: 'list_directory: root, subdirectories, empty, "" and "."', calls: [
    ...each('list_directory', [R(), R('project'), R('emptydir'), R('nested/l1/l2/l3/l4/l5/l6/l7'), '', '.', 'project/', `${ROOT}/`, `${ROOT}//project/./src/..`]),
  ] },
  { name: 'list_directory: errors (missing, a file)', calls: each('list_directory', [R('missing'), R('notes.txt'), R('nope/deeper')]) },

  // ---------------------------------------------------------------- list_directory_with_sizes
  // Upstream sorts these itself (localeCompare by name, or size descending):
  // the corpus has no ties, so the order is compared exactly.
  { name: 'list_directory_with_sizes: sortBy name (default and explicit)', calls: [
    c('list_directory_with_sizes', { path: R('sizes') }), c('list_directory_with_sizes', { path: R('sizes'), sortBy: 'name' }),
    c('list_directory_with_sizes', { path: R() }), c('list_directory_with_sizes', { path: R('project') }),
  ] },
  { name: 'list_directory_with_sizes: sortBy size', calls: [c('list_directory_with_sizes', { path: R('sizes'), sortBy: 'size' })] },
  { name: 'list_directory_with_sizes: empty directory and errors', calls: [
    c('list_directory_with_sizes', { path: R('emptydir') }), c('list_directory_with_sizes', { path: R('missing') }),
    c('list_directory_with_sizes', { path: R('notes.txt') }),
  ] },

  // ---------------------------------------------------------------- directory_tree
  { name: 'directory_tree: whole project, no excludes', calls: [c('directory_tree', { path: R('project') }), c('directory_tree', { path: R('project'), excludePatterns: [] })] },
  { name: 'directory_tree: excludePatterns *.log, **/node_modules/**, bare name, **/*.tmp', calls: [
    c('directory_tree', { path: R('project'), excludePatterns: ['*.log'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['**/*.log'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['**/node_modules/**'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['node_modules'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['notes'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['**/*.tmp'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['src/deep', '.git', '*.txt'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['**/*.{js,json}'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['node_modules/'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['!*.txt'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['deep'] }),
    c('directory_tree', { path: R('project'), excludePatterns: ['**/src/**'] }),
  ] },
  { name: 'directory_tree: nested 8 levels, relative path, empty dir', calls: [
    c('directory_tree', { path: R('nested') }), c('directory_tree', { path: 'nested' }),
    c('directory_tree', { path: 'project', excludePatterns: ['src', '*.tmp'] }),
    c('directory_tree', { path: R('emptydir') }),
  ] },
  { name: 'directory_tree: errors (missing, a file)', calls: each('directory_tree', [R('missing'), R('notes.txt')]) },

  // ---------------------------------------------------------------- search_files
  { name: 'search_files: glob patterns *.txt, **/*.js, **/deep/**, bare name', calls: [
    c('search_files', { path: R('project'), pattern: '*.txt' }),
    c('search_files', { path: R('project'), pattern: '**/*.js' }),
    c('search_files', { path: R('project'), pattern: '**/deep/**' }),
    c('search_files', { path: R('project'), pattern: 'notes' }),
    c('search_files', { path: R('project'), pattern: '**/notes' }),
    c('search_files', { path: R('project'), pattern: '**/*.JS' }),
  ] },
  { name: 'search_files: braces, classes, ?, dot files, negation, **', calls: [
    c('search_files', { path: R('project'), pattern: '**/*.{js,json}' }),
    c('search_files', { path: R('project'), pattern: '[ab].txt' }),
    c('search_files', { path: R('project'), pattern: '?.txt' }),
    c('search_files', { path: R('project'), pattern: '.*' }),
    c('search_files', { path: R('project'), pattern: '!*.txt' }),
    c('search_files', { path: R('project'), pattern: '**' }),
    c('search_files', { path: R('project'), pattern: 'src/*' }),
    c('search_files', { path: R('project'), pattern: './*.txt' }),
    c('search_files', { path: R('project'), pattern: '/*.txt' }),
    c('search_files', { path: R('project'), pattern: 'project/*.txt' }),
    c('search_files', { path: R('project'), pattern: 'src/' }),
    c('search_files', { path: R('project'), pattern: '**/.*' }),
    c('search_files', { path: R('project'), pattern: 'weird/\\**' }),
    c('search_files', { path: R('project'), pattern: 'weird/[[]bracket].txt' }),
    c('search_files', { path: R('project'), pattern: 'weird/\\[bracket\\].txt' }),
    c('search_files', { path: R('project'), pattern: 'weird/*\\?*' }),
    c('search_files', { path: R('project'), pattern: '**/*.@(js|md)' }),
    c('search_files', { path: R('project'), pattern: '**/+(a|b).txt' }),
    c('search_files', { path: R('project'), pattern: '**/!(index).js' }),
    c('search_files', { path: R('project'), pattern: '**/[!a]*.txt' }),
    c('search_files', { path: R('project'), pattern: '{src,docs}/**/*.{js,txt}' }),
    c('search_files', { path: R('project'), pattern: '**/file{1..3}.txt' }),
  ] },
  { name: 'search_files: excludePatterns', calls: [
    c('search_files', { path: R('project'), pattern: '**/*.js', excludePatterns: ['**/node_modules/**'] }),
    c('search_files', { path: R('project'), pattern: '**/*.js', excludePatterns: ['node_modules'] }),
    c('search_files', { path: R('project'), pattern: '**', excludePatterns: ['*.log', '**/*.tmp', '.git'] }),
    c('search_files', { path: R('project'), pattern: '**/*.txt', excludePatterns: ['**/deep/**'] }),
    c('search_files', { path: R('project'), pattern: '**', excludePatterns: ['!**/*.js'] }),
    c('search_files', { path: R('project'), pattern: '**/*.js', excludePatterns: ['node_modules/'] }),
    c('search_files', { path: R('project'), pattern: '**/*.js', excludePatterns: ['src'] }),
  ] },
  { name: 'search_files: no match, deep tree, relative root, errors', calls: [
    c('search_files', { path: R('project'), pattern: '*.nothing' }),
    c('search_files', { path: R('project'), pattern: '' }),
    c('search_files', { path: R('nested'), pattern: '**/leaf.txt' }),
    c('search_files', { path: 'nested', pattern: '**/*.txt' }),
    c('search_files', { path: R('missing'), pattern: '*' }),
    c('search_files', { path: R('notes.txt'), pattern: '*' }),
  ] },

  // ---------------------------------------------------------------- get_file_info
  { name: 'get_file_info: file, directory, root, modes', calls: each('get_file_info', [
    R('notes.txt'), R('empty.txt'), R('big.txt'), R('project'), R(), R('info/private.txt'), R('info/exec.sh'), R('info/locked'), 'notes.txt',
  ]) },
  { name: 'get_file_info: errors', calls: each('get_file_info', [R('missing'), R('nope/x'), R('notes.txt/x')]) },

  // ---------------------------------------------------------------- deep tree
  { name: 'nested tree 8 levels deep: read, list, info', calls: [
    c('read_text_file', { path: R('nested/l1/l2/l3/l4/l5/l6/l7/leaf.txt') }),
    c('list_directory', { path: R('nested/l1/l2/l3') }),
    c('get_file_info', { path: R('nested/l1/l2/l3/l4/l5/l6/l7') }),
    c('list_directory_with_sizes', { path: R('nested/l1/l2/l3/l4/l5/l6/l7') }),
  ] },

  // ---------------------------------------------------------------- paths
  { name: 'paths outside the root are refused by every tool', calls: [
    ...OUTSIDE.flatMap((p) => [c('read_text_file', { path: p })]),
    ...['read_file', 'read_media_file', 'list_directory', 'list_directory_with_sizes', 'directory_tree', 'get_file_info', 'create_directory']
      .flatMap((tool) => [c(tool, { path: '/etc/passwd' }), c(tool, { path: '../x' }), c(tool, { path: `${ROOT}2/x` })]),
    c('write_file', { path: '/etc/x', content: 'no' }), c('write_file', { path: '../x', content: 'no' }),
    c('write_file', { path: `${ROOT}2/x`, content: 'no' }),
    c('edit_file', { path: '/etc/passwd', edits: [] }), c('edit_file', { path: `${ROOT}2/x`, edits: [] }),
    c('search_files', { path: '/etc', pattern: '*' }), c('search_files', { path: `${ROOT}2`, pattern: '*' }),
    c('move_file', { source: '/etc/passwd', destination: R('stolen') }),
    c('move_file', { source: R('notes.txt'), destination: '/tmp/escaped' }),
    c('move_file', { source: R('notes.txt'), destination: `${ROOT}2/escaped` }),
    c('read_multiple_files', { paths: OUTSIDE }),
  ] },
  { name: 'path forms: ., .., //, trailing slash, ~, over-long names', calls: [
    c('read_text_file', { path: `${ROOT}/./notes.txt` }), c('read_text_file', { path: `${ROOT}/project/../notes.txt` }),
    c('read_text_file', { path: `${ROOT}//notes.txt` }), c('read_text_file', { path: `${ROOT}/notes.txt/` }),
    c('list_directory', { path: `${ROOT}/nested/l1/` }), c('read_text_file', { path: '~/x' }),
    c('list_directory', { path: '~' }), c('read_text_file', { path: R('x'.repeat(300)) }),
    c('write_file', { path: R(`${'y'.repeat(300)}.txt`), content: 'x' }),
    c('read_text_file', { path: R(`${'z'.repeat(300)}/x.txt`) }),
  ] },
  { name: 'relative paths resolve against the root', calls: [
    c('read_text_file', { path: 'notes.txt' }), c('read_text_file', { path: './notes.txt' }),
    c('read_text_file', { path: 'project/../notes.txt' }), c('read_text_file', { path: 'nested/l1/top.txt' }),
    c('get_file_info', { path: 'project' }), c('list_directory', { path: 'nested/l1' }),
    c('search_files', { path: '.', pattern: 'notes.txt' }),
    c('read_multiple_files', { paths: ['notes.txt', './no-newline.txt'] }),
  ] },

  // ---------------------------------------------------------------- write_file
  { name: 'write_file: create a new file, then read it back and stat it', calls: [
    c('write_file', { path: R('write/new.txt'), content: 'brand new\n' }),
    c('read_text_file', { path: R('write/new.txt') }),
    c('get_file_info', { path: R('write/new.txt') }),
    c('write_file', { path: R('write/empty.txt'), content: '' }),
    c('write_file', { path: R('write/unicode-日本.txt'), content: 'naïve 日本 😀\r\nsecond\r\n' }),
    c('read_text_file', { path: R('write/unicode-日本.txt') }),
    c('write_file', { path: 'write/relative.txt', content: 'relative\n' }),
    c('write_file', { path: R('write/controls.txt'), content: 'NUL \u0000, DEL \u007f, BOM \ufeff, U+2028 \u2028\n' }),
    c('read_text_file', { path: R('write/controls.txt') }),
    c('create_directory', { path: 'create/trail/' }),
  ] },
  { name: 'write_file: overwrite an existing file (mode kept)', calls: [
    c('write_file', { path: R('write/existing.txt'), content: 'new content\n' }),
    c('read_text_file', { path: R('write/existing.txt') }),
    c('write_file', { path: R('write/mode600.txt'), content: 'new secret\n' }),
    c('get_file_info', { path: R('write/mode600.txt') }),
    c('write_file', { path: R(`write/caf${NFD_E}.txt`), content: 'written through the NFD spelling\n' }),
    c('list_directory', { path: R('write') }),
  ] },
  // JSON.stringify sends a lone surrogate as the escape "\ud800" (valid JSON
  // grammar); upstream's JSON.parse takes it and Node writes it as U+FFFD.
  { name: 'write_file: content with a lone UTF-16 surrogate', calls: [
    c('write_file', { path: R('write/surrogate.txt'), content: 'lone \ud800 surrogate, low \udc00 alone\n' }),
    c('read_text_file', { path: R('write/surrogate.txt') }),
  ] },
  { name: 'write_file: 3 MiB content', calls: [
    c('create_directory', { path: R('big-writes') }),
    c('write_file', { path: R('big-writes/three-mib.txt'), content: 'w'.repeat(3 << 20) }),
    c('get_file_info', { path: R('big-writes/three-mib.txt') }),
    c('read_text_file', { path: R('big-writes/three-mib.txt'), tail: 1 }),
  ] },
  { name: 'write_file: 5 MiB content', calls: [
    c('write_file', { path: R('big-writes/five-mib.txt'), content: 'v'.repeat(5 << 20) }),
    c('get_file_info', { path: R('big-writes/five-mib.txt') }),
  ] },
  { name: 'write_file: errors (missing parent, onto a directory, through a file)', calls: [
    c('write_file', { path: R('write/nope/x.txt'), content: 'x' }),
    c('write_file', { path: R('write/adir'), content: 'x' }),
    c('write_file', { path: R('notes.txt/x'), content: 'x' }),
  ] },

  // ---------------------------------------------------------------- edit_file
  { name: 'edit_file: single edit', calls: [
    c('edit_file', { path: R('edit/single.txt'), edits: [{ oldText: 'beta', newText: 'BETA' }] }),
    c('read_text_file', { path: R('edit/single.txt') }),
  ] },
  { name: 'edit_file: multi-edit (applied in order)', calls: [
    c('edit_file', { path: R('edit/multi.txt'), edits: [
      { oldText: 'two', newText: 'TWO' }, { oldText: 'TWO\nthree', newText: '2\n3' }, { oldText: 'five\n', newText: 'five\nsix\n' },
    ] }),
    c('read_text_file', { path: R('edit/multi.txt') }),
  ] },
  { name: 'edit_file: dryRun shows the diff and writes nothing', calls: [
    c('edit_file', { path: R('edit/dry.txt'), edits: [{ oldText: 'keep me', newText: 'changed' }], dryRun: true }),
    c('read_text_file', { path: R('edit/dry.txt') }),
    c('edit_file', { path: R('edit/dry.txt'), edits: [{ oldText: 'absent', newText: 'x' }], dryRun: true }),
    c('edit_file', { path: R('edit/dry.txt'), edits: [{ oldText: 'as I am', newText: 'as I was' }], dryRun: false }),
    c('read_text_file', { path: R('edit/dry.txt') }),
  ] },
  { name: 'edit_file: whitespace-tolerant match with different indentation', calls: [
    c('edit_file', { path: R('edit/indent.py'), edits: [{ oldText: 'if x:\n    return 1', newText: 'if not x:\n    return 0\n  # note\nreturn -1' }] }),
    c('read_text_file', { path: R('edit/indent.py') }),
    c('edit_file', { path: R('edit/indent2.js'), edits: [{ oldText: '  if (a) {\n    call(1);\n  }', newText: '  if (b) {\n      call(2);\n  }' }] }),
    c('read_text_file', { path: R('edit/indent2.js') }),
  ] },
  { name: 'edit_file: oldText not found is an error', calls: [
    c('edit_file', { path: R('edit/nomatch.txt'), edits: [{ oldText: 'not there\r\nat all', newText: 'x' }] }),
    c('edit_file', { path: R('edit/nomatch.txt'), edits: [{ oldText: 'nothing', newText: 'N' }, { oldText: 'nothing', newText: 'again' }] }),
    c('read_text_file', { path: R('edit/nomatch.txt') }),
  ] },
  { name: 'edit_file: CRLF file (matched with LF, written back with LF)', calls: [
    c('edit_file', { path: R('edit/crlf.txt'), edits: [{ oldText: 'second line\r\nthird', newText: 'SECOND\r\nTHIRD' }] }),
    c('read_text_file', { path: R('edit/crlf.txt') }),
  ] },
  { name: 'edit_file: backticks in the diff widen the fence; $ patterns are literal', calls: [
    c('edit_file', { path: R('edit/fence.md'), edits: [{ oldText: 'code();', newText: 'code(`x`);' }] }),
    c('edit_file', { path: R('edit/dollar.txt'), edits: [{ oldText: 'X', newText: "$& $1 $$ $' $`" }] }),
    c('read_text_file', { path: R('edit/dollar.txt') }),
  ] },
  { name: 'edit_file: first occurrence only, no final newline, deletions, context, unicode', calls: [
    c('edit_file', { path: R('edit/twice.txt'), edits: [{ oldText: 'dup', newText: 'DUP' }] }),
    c('edit_file', { path: R('edit/noeol.txt'), edits: [{ oldText: 'c', newText: 'C\nD' }] }),
    c('edit_file', { path: R('edit/delete.txt'), edits: [{ oldText: 'drop 1\ndrop 2\n', newText: '' }] }),
    c('edit_file', { path: R('edit/context.txt'), edits: [{ oldText: 'row 5\n', newText: 'row five\n' }, { oldText: 'row 25', newText: 'row 25\nrow 25b' }] }),
    c('edit_file', { path: R('edit/unicode.txt'), edits: [{ oldText: 'café', newText: 'CAFÉ 😀' }] }),
    c('read_multiple_files', { paths: [R('edit/twice.txt'), R('edit/noeol.txt'), R('edit/delete.txt'), R('edit/unicode.txt')] }),
  ] },
  { name: 'edit_file: empty oldText, empty edit list, mode kept', calls: [
    c('edit_file', { path: R('edit/empty-old.txt'), edits: [{ oldText: '', newText: 'prefix ' }] }),
    c('edit_file', { path: R('edit/empty-edits.txt'), edits: [] }),
    c('edit_file', { path: R('edit/mode600.txt'), edits: [{ oldText: 'secret', newText: 'hidden' }] }),
    c('get_file_info', { path: R('edit/mode600.txt') }),
  ] },
  { name: 'edit_file: errors (missing, directory)', calls: [
    c('edit_file', { path: R('edit/missing.txt'), edits: [{ oldText: 'a', newText: 'b' }] }),
    c('edit_file', { path: R('edit'), edits: [{ oldText: 'a', newText: 'b' }] }),
    c('edit_file', { path: R('edit/missing.txt'), edits: [], dryRun: true }),
  ] },

  // ---------------------------------------------------------------- create_directory
  { name: 'create_directory: nested new, existing, relative', calls: [
    c('create_directory', { path: R('create/a/b/c/d') }), c('list_directory', { path: R('create/a/b/c') }),
    c('create_directory', { path: R('create/existing') }), c('create_directory', { path: R('create/a') }),
    c('create_directory', { path: 'create/relative' }), c('create_directory', { path: R(`create/caf${NFC_E}`) }),
    c('create_directory', { path: R(`create/caf${NFD_E}/sub`) }), c('directory_tree', { path: R('create') }),
  ] },
  { name: 'create_directory: errors (onto a file, below a file)', calls: [
    c('create_directory', { path: R('notes.txt') }), c('create_directory', { path: R('notes.txt/sub') }),
  ] },

  // ---------------------------------------------------------------- move_file
  { name: 'move_file: rename a file, move into another directory', calls: [
    c('move_file', { source: R('move/a.txt'), destination: R('move/renamed.txt') }),
    c('move_file', { source: R('move/renamed.txt'), destination: R('move/target/renamed.txt') }),
    c('move_file', { source: 'move/b.txt', destination: 'move/b2.txt' }),
    c('list_directory', { path: R('move') }), c('list_directory', { path: R('move/target') }),
  ] },
  { name: 'move_file: onto an existing destination is an error', calls: [
    c('move_file', { source: R('move/b2.txt'), destination: R('move/existing.txt') }),
    c('move_file', { source: R('move/b2.txt'), destination: R('move/target') }),
    c('move_file', { source: R('move/b2.txt'), destination: R('move/b2.txt') }),
    c('read_text_file', { path: R('move/existing.txt') }),
  ] },
  { name: 'move_file: move a directory', calls: [
    c('move_file', { source: R('move/srcdir'), destination: R('move/target/moved-dir') }),
    c('directory_tree', { path: R('move') }),
  ] },
  { name: 'move_file: errors (missing source, missing parent, into itself)', calls: [
    c('move_file', { source: R('move/missing.txt'), destination: R('move/x.txt') }),
    c('move_file', { source: R('move/b2.txt'), destination: R('move/nope/x.txt') }),
    c('move_file', { source: R('move/self'), destination: R('move/self/child-dir') }),
  ] },

  { name: 'move_file: rename a seeded directory in place', calls: [
    c('move_file', { source: R('move/target'), destination: R('move/target-renamed') }),
    c('list_directory', { path: R('move') }),
  ] },
  { name: 'move_file: move a directory created in this session', calls: [
    c('create_directory', { path: R('move/fresh/sub') }),
    c('write_file', { path: R('move/fresh/sub/f.txt'), content: 'fresh\n' }),
    c('move_file', { source: R('move/fresh'), destination: R('move/fresh-moved') }),
    c('directory_tree', { path: R('move/fresh-moved') }),
  ] },

  // ---------------------------------------------------------------- symlinks
  { name: 'symlinks: read, list, tree, search and stat follow or show them like upstream', calls: [
    c('read_text_file', { path: R('links/to-notes') }), c('read_text_file', { path: R('links/chain') }),
    c('read_text_file', { path: R('links/to-notes'), tail: 2 }), c('read_media_file', { path: R('links/to-target') }),
    c('list_directory', { path: R('links') }), c('list_directory_with_sizes', { path: R('links') }),
    c('list_directory', { path: R('links/to-project') }), c('directory_tree', { path: R('links') }),
    c('directory_tree', { path: R('links/to-project'), excludePatterns: ['node_modules', 'src'] }),
    c('search_files', { path: R('links'), pattern: '*' }), c('search_files', { path: R('links/to-project'), pattern: '*.txt' }),
    c('get_file_info', { path: R('links/to-notes') }), c('get_file_info', { path: R('links/to-project') }),
    c('read_multiple_files', { paths: [R('links/to-notes'), R('links/dangling'), R('links/loop-a')] }),
  ] },
  { name: 'symlinks: dangling and looping links are errors', calls: [
    c('read_text_file', { path: R('links/dangling') }), c('get_file_info', { path: R('links/dangling') }),
    c('read_text_file', { path: R('links/loop-a') }), c('list_directory', { path: R('links/loop-a') }),
    c('write_file', { path: R('links/dangling'), content: 'x' }), c('create_directory', { path: R('links/dangling') }),
    c('read_text_file', { path: R('links/dangling/x') }),
  ] },
  { name: 'symlinks: write, edit and move act on the target', calls: [
    c('write_file', { path: R('links/to-target'), content: 'written through a link\n' }),
    c('read_text_file', { path: R('links/target.txt') }),
    c('edit_file', { path: R('links/to-editable'), edits: [{ oldText: 'edit me', newText: 'edited' }] }),
    c('read_text_file', { path: R('links/editable.txt') }),
    c('move_file', { source: R('links/to-movable'), destination: R('links/moved.txt') }),
    c('list_directory', { path: R('links') }),
    c('move_file', { source: R('links/to-notes'), destination: R('links/to-target') }),
  ] },

  // ---------------------------------------------------------------- invalid arguments
  { name: 'invalid arguments: wrong types and missing required (SDK validation text)', calls: [
    c('read_text_file', {}), c('read_text_file', undefined), c('read_text_file', { path: 5 }),
    c('read_text_file', { path: R('notes.txt'), head: '2' }), c('read_text_file', { path: null, tail: true }),
    c('read_media_file', { path: [] }), c('read_multiple_files', { paths: [] }), c('read_multiple_files', { paths: R('notes.txt') }),
    c('read_multiple_files', { paths: [R('notes.txt'), 7] }), c('write_file', { path: R('write/bad.txt') }),
    c('write_file', { content: 'x' }), c('edit_file', { path: R('edit/single.txt'), edits: 'x' }),
    c('edit_file', { path: R('edit/single.txt'), edits: [{ oldText: 'a' }] }),
    c('edit_file', { path: R('edit/single.txt'), edits: [], dryRun: 'yes' }),
    c('create_directory', { path: {} }), c('list_directory', { path: 1.5 }),
    c('list_directory_with_sizes', { path: R(), sortBy: 'date' }), c('directory_tree', { path: R(), excludePatterns: '*.log' }),
    c('directory_tree', { path: R(), excludePatterns: [1] }), c('move_file', { source: R('notes.txt') }),
    c('search_files', { path: R() }), c('search_files', { path: R(), pattern: 1, excludePatterns: [null] }),
    c('get_file_info', { path: false }),
  ] },
  { name: 'unknown arguments are ignored; unknown tool is an error', calls: [
    c('read_text_file', { path: R('notes.txt'), bogus: 1 }), c('no_such_tool', {}),
  ] },

  { name: 'after all mutations: both trees hold the same files and contents', special: 'tree' },
  { name: 'after all mutations: same permission bits', special: 'modes' },
];
