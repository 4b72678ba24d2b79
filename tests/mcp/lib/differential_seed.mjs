// The seed tree of differential_filesystem.test.mjs (its calls are in
// differential_corpus.mjs): the files, links, empty directories, modes and
// times both servers start from, and the path helpers the calls use.
//
// Paths are written with the placeholder ROOT ("@ROOT@"), replaced per side
// by that side's root ("/data" in the sandbox, "<tmp>/data" for upstream).

import fs from 'node:fs';
import path from 'node:path';

import { PIXEL_PNG, bytes } from './seed_bytes.mjs';

export const ROOT = '@ROOT@';
export const R = (rel = '') => (rel ? `${ROOT}/${rel}` : ROOT);

/** mtime of every seeded file and directory (2023-11-14T22:13:20Z). */
export const SEED_MTIME = 1_700_000_000;

export const NFC_E = '\u00e9'; // é, one code point
export const NFD_E = 'e\u0301'; // é, e + combining acute

/** 65536 lines of 32 bytes: exactly 2 MiB. */
const BIG_TEXT = Array.from({ length: 65536 }, (_, i) => `${String(i).padStart(8, '0')} ${'x'.repeat(22)}\n`).join('');

/** ~9 KB of multi-byte UTF-8 (characters straddle the 1 KB read chunks of head/tail). */
const UTF8_TEXT = Array.from({ length: 200 }, (_, i) => `日本語のテキスト ${i} — ünïcödé 😀\n`).join('');

/** Bytes that are not valid UTF-8 (decoded with U+FFFD replacement by upstream). */
const INVALID_UTF8 = Buffer.concat([
  Buffer.from('caf'), Buffer.from([0xe9, 0x0a]), // latin-1 é
  Buffer.from([0xf0, 0x9f, 0x98, 0x0a]), // truncated 4-byte sequence
  Buffer.from([0xed, 0xa0, 0x80, 0x0a]), // UTF-16 surrogate
  Buffer.from([0xc0, 0xaf, 0x0a]), // overlong '/'
  Buffer.from([0xff, 0xfe, 0x0a]), // never valid
  Buffer.from([0xe6, 0x97, 0x41, 0x0a]), // truncated 3-byte sequence, then 'A'
  Buffer.from('end'),
]);

const WAV_HEADER = Buffer.concat([
  Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x40, 0x1f, 0, 0, 1, 0, 8, 0]),
  Buffer.from('data'), Buffer.from([0, 0, 0, 0]),
]);

/** Regular files of the seed tree: {relative path: string | Buffer}. */
export const SEED_FILES = {
  // plain text, head/tail
  'notes.txt': 'line1\nline2\nline3\nline4\nline5\n',
  'no-newline.txt': 'alpha\nbeta\ngamma',
  'empty.txt': '',
  'single-line.txt': 'just one line',
  'only-newlines.txt': '\n\n\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\nfour\r\n',
  'crlf-big.txt': Array.from({ length: 300 }, (_, i) => `crlf line ${i}`).join('\r\n') + '\r\n',
  'mixed-eol.txt': 'unix\nwindows\r\nold-mac\rlast',
  'bom.txt': '\ufeffbom line 1\nbom line 2\n',
  'big.txt': BIG_TEXT,
  'utf8.txt': UTF8_TEXT,
  'invalid-utf8.txt': INVALID_UTF8,

  // names
  [`unicode/caf${NFC_E}.txt`]: 'NFC-named file\n',
  [`unicode/nfd-caf${NFD_E}.txt`]: 'NFD-named file\n',
  'unicode/日本語.txt': '日本語の内容\n',
  'unicode/emoji-😀.txt': 'emoji 🎉\n',
  [`unicode/ambig-${NFC_E}${NFD_E}.txt`]: 'NFC then NFD\n',
  [`unicode/ambig-${NFD_E}${NFC_E}.txt`]: 'NFD then NFC\n',
  'unicode/Ünïcødé dir/inner.txt': 'inside a unicode directory\n',
  'with spaces/a file.txt': 'spaces in the name\n',
  'with spaces/ leading.txt': 'leading space\n',
  'with spaces/trailing ': 'trailing space\n',
  "with spaces/it's \"quoted\".txt": 'quotes in the name\n',

  // media
  'media/pixel.png': PIXEL_PNG,
  'media/UPPER.PNG': PIXEL_PNG,
  'media/photo.jpg': bytes(40, 1),
  'media/photo.jpeg': bytes(41, 2),
  'media/anim.gif': bytes(42, 3),
  'media/img.webp': bytes(43, 4),
  'media/img.bmp': bytes(44, 5),
  'media/vector.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n',
  'media/tone.mp3': Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00'), bytes(32, 6)]),
  'media/beep.wav': WAV_HEADER,
  'media/sound.ogg': Buffer.concat([Buffer.from('OggS'), bytes(28, 7)]),
  'media/sound.flac': Buffer.concat([Buffer.from('fLaC'), bytes(28, 8)]),
  'media/blob.bin': bytes(300, 9),
  'media/readme.txt': 'text read as media\n',
  'media/noext': bytes(17, 10),
  'media/.png': PIXEL_PNG,
  'media/empty.png': '',
  [`media/we#ird %name? ${NFC_E}.dat`]: bytes(12, 11),

  // list_directory_with_sizes: distinct sizes (sortBy size has no ties), names
  // that exercise localeCompare (case, digits, punctuation, accents) and sizes
  // whose 2-decimal rounding is a tie (1152 B = 1.125 KB, 3200 B = 3.125 KB).
  'sizes/a.txt': 'a'.repeat(10),
  'sizes/B.txt': 'b'.repeat(1152),
  'sizes/c.txt': '',
  'sizes/10.txt': '1'.repeat(2432),
  'sizes/9.txt': '9'.repeat(1023),
  'sizes/_under.txt': '_'.repeat(3200),
  [`sizes/${NFC_E}t${NFC_E}.txt`]: 'ete!!',
  'sizes/Z.txt': 'z',
  'sizes/big.bin': bytes(1_100_000, 12),
  'sizes/sub/inner.txt': 'inner\n',
  'sizes/A.txt': 'A'.repeat(7),
  'sizes/a-b.txt': '-'.repeat(3),
  'sizes/a_b.txt': '_'.repeat(4),
  'sizes/ä.txt': 'ä'.repeat(3), // 6 bytes
  'sizes/日本.txt': 'n'.repeat(8),
  'sizes/Ω.txt': 'o'.repeat(9),
  'sizes/😀.txt': 'e'.repeat(11),
  'sizes/a10.txt': 'x'.repeat(12),
  'sizes/a9.txt': 'x'.repeat(13),
  'sizes/ space.txt': 'x'.repeat(14),
  // formatSize at the unit boundaries (1024 B, 1 MiB - 1 B, 1 MiB)
  'sizes/kib.txt': Buffer.alloc(1024, 0x6b),
  'sizes/mib-1.txt': Buffer.alloc(1_048_575, 0x6d),
  'sizes/mib.txt': Buffer.alloc(1_048_576, 0x4d),

  // search_files / directory_tree
  'project/README.txt': '# project\n',
  'project/notes': 'a file named notes\n',
  'project/docs/notes/todo.txt': 'a directory named notes\n',
  'project/docs/guide.txt': 'guide\n',
  'project/src/index.js': 'export {};\n',
  'project/src/util.js': 'export const x = 1;\n',
  'project/src/lib/helper.js': 'export function help() {}\n',
  'project/src/debug.log': 'debug\n',
  'project/src/deep/two.js': '// two\n',
  'project/src/deep/inner/three.txt': 'three\n',
  'project/build.log': 'build\n',
  'project/node_modules/pkg/index.js': 'module.exports = {};\n',
  'project/node_modules/pkg/package.json': '{"name":"pkg"}\n',
  'project/node_modules/pkg/node_modules/dep/dep.js': '// dep\n',
  'project/cache.tmp': 'tmp\n',
  'project/tmp/a.tmp': 'tmp\n',
  'project/tmp/keep.txt': 'keep\n',
  'project/deep/one.txt': 'one\n',
  'project/.env': 'SECRET=1\n',
  'project/.git/config': '[core]\n',
  'project/a.txt': 'a\n',
  'project/b.txt': 'b\n',
  'project/ab.txt': 'ab\n',
  'project/App.JS': '// upper-case extension\n',
  'project/weird/*star*.txt': 'a star in the name\n',
  'project/weird/[bracket].txt': 'brackets in the name\n',
  'project/weird/q?.txt': 'a question mark in the name\n',
  'project/docs/file1.txt': 'f1\n',
  'project/docs/file3.txt': 'f3\n',
  'project/docs/file10.txt': 'f10\n',

  // symlinks (relative, inside the tree: the upload refuses any other kind)
  'links/target.txt': 'symlink target\n',
  'links/movable.txt': 'moved through a symlink\n',
  'links/editable.txt': 'edit me through a link\n',

  // nested 8 levels
  'nested/l1/l2/l3/l4/l5/l6/l7/leaf.txt': 'deep leaf\n',
  'nested/l1/l2/l3/side.txt': 'side\n',
  'nested/l1/top.txt': 'top\n',

  // get_file_info
  'info/file.txt': 'info\n',
  'info/private.txt': 'private\n',
  'info/exec.sh': '#!/bin/sh\necho hi\n',

  // edit_file
  'edit/single.txt': 'alpha\nbeta\ngamma\n',
  'edit/multi.txt': 'one\ntwo\nthree\nfour\nfive\n',
  'edit/indent.py': 'def f(x):\n    if x:\n        return 1\n    return 2\n',
  'edit/indent2.js': 'function g() {\n\tif (a) {\n\t\tcall(1);\n\t}\n}\n',
  'edit/crlf.txt': 'first line\r\nsecond line\r\nthird line\r\n',
  'edit/dry.txt': 'keep me\nas I am\n',
  'edit/fence.md': 'text\n```js\ncode();\n```\nafter\n',
  'edit/dollar.txt': 'price: X\n',
  'edit/twice.txt': 'dup\nmid\ndup\n',
  'edit/noeol.txt': 'a\nb\nc',
  'edit/mode600.txt': 'secret value\n',
  'edit/empty-old.txt': 'body\n',
  'edit/nomatch.txt': 'nothing to see\n',
  'edit/unicode.txt': 'naïve café\n日本\n',
  'edit/context.txt': Array.from({ length: 30 }, (_, i) => `row ${i + 1}`).join('\n') + '\n',
  'edit/delete.txt': 'keep 1\ndrop 1\ndrop 2\nkeep 2\n',
  'edit/empty-edits.txt': 'unchanged\n',

  // write_file
  'write/existing.txt': 'old content\n',
  'write/mode600.txt': 'old secret\n',
  'write/adir/inside.txt': 'x\n',
  [`write/caf${NFC_E}.txt`]: 'NFC original\n',

  // move_file
  'move/a.txt': 'move a\n',
  'move/b.txt': 'move b\n',
  'move/existing.txt': 'already here\n',
  'move/srcdir/inner/x.txt': 'x in srcdir\n',
  'move/target/t.txt': 't\n',
  'move/self/child.txt': 'c\n',
};

/** Symbolic links: {relative path: target}. */
export const SEED_SYMLINKS = {
  'links/to-notes': '../notes.txt',
  'links/to-project': '../project',
  'links/to-target': 'target.txt',
  'links/to-movable': 'movable.txt',
  'links/to-editable': 'editable.txt',
  'links/chain': 'to-target',
  'links/dangling': 'missing-target',
  'links/loop-a': 'loop-b',
  'links/loop-b': 'loop-a',
};

/** Directories with nothing in them. */
export const SEED_EMPTY_DIRS = ['emptydir', 'project/emptysub', 'create/existing', 'info/locked'];

/** Permission bits other than 0644 (files) / 0755 (dirs). */
export const SEED_MODES = {
  'info/private.txt': 0o600,
  'info/exec.sh': 0o755,
  'info/locked': 0o700,
  'edit/mode600.txt': 0o600,
  'write/mode600.txt': 0o600,
};

/** Writes the seed tree into `dir` (modes, and every mtime = SEED_MTIME). */
export function writeSeedTree(dir) {
  for (const [rel, content] of Object.entries(SEED_FILES)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o755 });
    fs.writeFileSync(p, content);
  }
  for (const rel of SEED_EMPTY_DIRS) fs.mkdirSync(path.join(dir, rel), { recursive: true, mode: 0o755 });
  for (const [rel, target] of Object.entries(SEED_SYMLINKS)) fs.symlinkSync(target, path.join(dir, rel));
  const dirs = [];
  const walk = (rel) => {
    for (const ent of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        walk(r);
        dirs.push(r);
      } else if (ent.isSymbolicLink()) {
        fs.lutimesSync(path.join(dir, r), SEED_MTIME, SEED_MTIME);
      } else {
        fs.chmodSync(path.join(dir, r), SEED_MODES[r] ?? 0o644);
        fs.utimesSync(path.join(dir, r), SEED_MTIME, SEED_MTIME);
      }
    }
  };
  walk('');
  for (const r of dirs) { // children before parents, so the utimes stick
    fs.chmodSync(path.join(dir, r), SEED_MODES[r] ?? 0o755);
    fs.utimesSync(path.join(dir, r), SEED_MTIME, SEED_MTIME);
  }
}
