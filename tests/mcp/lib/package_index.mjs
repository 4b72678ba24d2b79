// A Python package source for the install_dependencies suites: a wheel
// built here (pure Python, no build tools: a wheel is a zip of the package
// and its dist-info) and a PEP 503 "simple" index serving it over HTTP on
// the host's loopback (Python's own http.server: its directory listings are
// the anchor pages pip reads).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const WHEEL = 'sbx_demo-1.0-py3-none-any.whl';

/** Writes the sbx-demo 1.0 wheel (module sbx_demo, VALUE = 42) into `dir`. */
export function makeWheel(dir) {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'sandboxd-wheel-src-'));
  try {
    const info = path.join(src, 'sbx_demo-1.0.dist-info');
    fs.mkdirSync(path.join(src, 'sbx_demo'));
    fs.mkdirSync(info);
    fs.writeFileSync(path.join(src, 'sbx_demo', '__init__.py'), 'VALUE = 42\n');
    fs.writeFileSync(path.join(info, 'METADATA'), 'Metadata-Version: 2.1\nName: sbx-demo\nVersion: 1.0\n');
    fs.writeFileSync(path.join(info, 'WHEEL'),
      'Wheel-Version: 1.0\nGenerator: sandboxd-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n');
    fs.writeFileSync(path.join(info, 'RECORD'), '');
    fs.mkdirSync(dir, { recursive: true });
    const r = spawnSync('/usr/bin/python3', ['-m', 'zipfile', '-c', path.join(dir, WHEEL), 'sbx_demo', 'sbx_demo-1.0.dist-info'],
      { cwd: src, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`zipping the wheel failed: ${r.stderr}`);
    return path.join(dir, WHEEL);
  } finally {
    fs.rmSync(src, { recursive: true, force: true });
  }
}

/**
 * Serves `<root>/simple/sbx-demo/<wheel>` on 127.0.0.1 (a free port);
 * resolves to { url, requests(), stop() } once it listens. requests() lists
 * the paths asked for so far.
 */
export async function startPackageIndex(root) {
  makeWheel(path.join(root, 'simple', 'sbx-demo'));
  const proc = spawn('/usr/bin/python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', root],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`http.server did not start: ${out}${log}`)), 10_000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = / port (\d+) /.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    proc.on('exit', (code) => reject(new Error(`http.server exited with ${code}: ${out}${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/simple/`,
    requests: () => [...log.matchAll(/"GET (\S+) HTTP/g)].map((m) => m[1]),
    stop: () => new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.on('exit', () => resolve());
      proc.kill('SIGKILL');
    }),
  };
}
