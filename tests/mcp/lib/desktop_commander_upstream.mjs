// Upstream @wonderwhy-er/desktop-commander (npm 0.2.10, tests/mcp/node_modules)
// as a stdio MCP server for the differential suite, made runnable offline and
// kept off the network:
//
// - its search imports @vscode/ripgrep, whose platform binary package could
//   not be installed here; the server is run from a temporary node_modules
//   holding copies of desktop-commander and @vscode/ripgrep, a generated
//   @vscode/ripgrep-linux-x64 whose bin/rg is a symlink to Debian's /usr/bin/rg,
//   and symlinks to everything else in tests/mcp/node_modules (no binary is
//   ever committed or downloaded);
// - its HOME is a temporary directory with a config.json written before it
//   starts: telemetry off (so nothing is sent), the workspace as the only
//   allowed directory, upstream's other defaults;
// - it runs in a fresh network namespace (unshare --net, as root) when that
//   is available, so even a bug cannot reach the network.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { MCP_DIR } from './sandboxd.mjs';

const NODE_MODULES = path.join(MCP_DIR, 'node_modules');

/** upstream's default blockedCommands (config-manager.ts getDefaultConfig). */
export const DEFAULT_BLOCKED = [
  'mkfs', 'format', 'mount', 'umount', 'fdisk', 'dd', 'parted', 'diskpart', 'sudo', 'su', 'passwd', 'adduser',
  'useradd', 'usermod', 'groupadd', 'chsh', 'visudo', 'shutdown', 'reboot', 'halt', 'poweroff', 'init', 'iptables',
  'firewall', 'netsh', 'sfc', 'bcdedit', 'reg', 'net', 'sc', 'runas', 'cipher', 'takeown',
];

/** A node_modules tree under `dir` from which upstream can start (see above); returns its entry script. */
export function prepareUpstreamTree(dir) {
  const nm = path.join(dir, 'node_modules');
  fs.mkdirSync(nm, { recursive: true });
  for (const entry of fs.readdirSync(NODE_MODULES)) {
    if (entry === '.bin' || entry.startsWith('.')) continue;
    if (entry === '@vscode' || entry === '@wonderwhy-er') continue;
    fs.symlinkSync(path.join(NODE_MODULES, entry), path.join(nm, entry));
  }
  fs.cpSync(path.join(NODE_MODULES, '@wonderwhy-er', 'desktop-commander'),
    path.join(nm, '@wonderwhy-er', 'desktop-commander'), { recursive: true, verbatimSymlinks: true });
  fs.cpSync(path.join(NODE_MODULES, '@vscode', 'ripgrep'), path.join(nm, '@vscode', 'ripgrep'), { recursive: true });
  const platform = path.join(nm, '@vscode', 'ripgrep-linux-x64');
  fs.mkdirSync(path.join(platform, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(platform, 'package.json'),
    JSON.stringify({ name: '@vscode/ripgrep-linux-x64', version: '1.18.0' }));
  fs.symlinkSync('/usr/bin/rg', path.join(platform, 'bin', 'rg'));
  return path.join(nm, '@wonderwhy-er', 'desktop-commander', 'dist', 'index.js');
}

/** Writes upstream's config.json into `home` (telemetry off, `workspace` the only allowed directory). */
export function writeUpstreamConfig(home, workspace) {
  const dir = path.join(home, '.claude-server-commander');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({
    blockedCommands: DEFAULT_BLOCKED,
    defaultShell: '/bin/sh',
    allowedDirectories: [workspace],
    telemetryEnabled: false,
    fileWriteLineLimit: 50,
    fileReadLineLimit: 1000,
  }, null, 2));
}

function canUnshareNet() {
  try {
    execFileSync('unshare', ['--net', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Upstream over stdio, connected; `workspace` is its cwd and allowed directory.
 * The client calls itself "unknown" so that get_config's currentClient matches
 * ours (sandboxd's tools do not see the client's name).
 */
export async function startUpstream({ entry, home, workspace }) {
  writeUpstreamConfig(home, workspace);
  const env = { PATH: process.env.PATH, HOME: home, TZ: 'UTC', LANG: 'C.UTF-8' };
  const command = canUnshareNet() ? 'unshare' : process.execPath;
  const args = command === 'unshare' ? ['--net', process.execPath, entry] : [entry];
  const client = new Client({ name: 'unknown', version: 'unknown' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, env, cwd: workspace, stderr: 'ignore' }));
  return client;
}
