// Independent readers shared by the document suites: LibreOffice headless,
// qpdf and poppler's pdftotext (Debian packages from scripts/install-deps.sh)
// and Debian's python3 with openpyxl / pypdf.
//
// One LibreOffice process per suite: a suite collects the files it wrote and
// converts them all in one `soffice --convert-to` run (a start costs ~1 s and
// a profile directory; one run converts any number of files).
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const PYTHON = '/usr/bin/python3';

// Converts every file of `paths` to `format` (e.g. 'pdf') in one soffice
// run with a throwaway profile; returns {input → converted path or null}.
// Throws when soffice itself fails. A file LibreOffice cannot open gets no
// output, so callers assert each entry is non-null.
export async function convertWithLibreOffice(paths, format = 'pdf', { filter } = {}) {
  const out = mkdtempSync(join(tmpdir(), 'sbx-office-out-'));
  const profile = mkdtempSync(join(tmpdir(), 'sbx-office-profile-'));
  try {
    const target = filter ? `${format}:${filter}` : format;
    await run('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore',
      '--convert-to', target, '--outdir', out, ...paths], { timeout: 300_000, maxBuffer: 16 << 20 });
    const produced = new Set(readdirSync(out));
    const result = {};
    for (const p of paths) {
      const name = `${basename(p, extname(p))}.${format}`;
      result[p] = produced.has(name) && statSync(join(out, name)).size > 0 ? join(out, name) : null;
    }
    return { result, dir: out };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

// `qpdf --check`: {ok, output}. Exit 0 is clean, 3 is warnings only.
export async function qpdfCheck(path) {
  try {
    const { stdout } = await run('qpdf', ['--check', path]);
    return { ok: true, output: stdout };
  } catch (e) {
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}`, code: e.code };
  }
}

// poppler's pdftotext of one page range (1-based, inclusive), layout off.
export async function pdftotext(path, { first, last } = {}) {
  const args = [];
  if (first) args.push('-f', String(first));
  if (last) args.push('-l', String(last));
  const { stdout } = await run('pdftotext', [...args, path, '-'], { maxBuffer: 64 << 20 });
  return stdout;
}

// Runs a Python script (Debian's python3, which has openpyxl and pypdf)
// with `args`; parses its stdout as JSON.
export async function pythonJson(script, args = []) {
  const { stdout } = await run(PYTHON, ['-c', script, ...args], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}
