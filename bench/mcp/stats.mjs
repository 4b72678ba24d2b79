// What the upstream baselines share (upstream_stdio.mjs, upstream_servers.mjs):
// command-line options, percentiles, on-CPU time of a process, the results
// file of bench/run.sh ("key value" lines), and a sequential measuring loop.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

/** `--key value` pairs of process.argv. */
export function parseArgs(argv = process.argv) {
  const args = {};
  for (let i = 2; i < argv.length; i += 2) {
    const k = argv[i];
    if (!k.startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument ${k}`);
    args[k.slice(2)] = argv[i + 1];
  }
  return args;
}

/** Nearest-rank percentiles, as sandboxd-bench computes them. */
export function summarize(samples) {
  const v = [...samples].sort((a, b) => a - b);
  const rank = (p) => v[Math.min(Math.max(Math.ceil(p * v.length), 1), v.length) - 1];
  return { n: v.length, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: v[v.length - 1],
           mean: v.reduce((a, b) => a + b, 0) / v.length };
}

/** On-CPU nanoseconds of every thread of `pid` (schedstat), 0 if unreadable. */
export function cpuNs(pid) {
  let total = 0;
  try {
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      try { total += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]); } catch {}
    }
  } catch {}
  return total;
}

/** Appends "key value" lines to `out` (nothing when it is unset). */
export function resultsFile(out) {
  return (key, value) => { if (out) fs.appendFileSync(out, `${key} ${value.toFixed(6)}\n`); };
}

function report(put, prefix, what, lat, wallMs, serverNs, clientUs) {
  const s = summarize(lat);
  const cps = (lat.length / wallMs) * 1000;
  const serverUs = serverNs / 1000 / lat.length, perClient = clientUs / lat.length;
  console.log(`${what}: n=${s.n} p50=${s.p50.toFixed(3)} p90=${s.p90.toFixed(3)} p99=${s.p99.toFixed(3)} ` +
              `max=${s.max.toFixed(3)} mean=${s.mean.toFixed(3)} ms, ${cps.toFixed(0)} calls/s; ` +
              `CPU per call: server ${serverUs.toFixed(1)} us, client ${perClient.toFixed(1)} us`);
  for (const k of ['n', 'p50', 'p90', 'p99', 'max', 'mean']) put(`${prefix}_${k}${k === 'n' ? '' : '_ms'}`, s[k]);
  put(`${prefix}_cps`, cps);
  put(`${prefix}_server_us`, serverUs);
  put(`${prefix}_client_us`, perClient);
}

/**
 * `warmup` calls of `call()`, then `calls` sequential ones, each timed; prints
 * and records p50/p90/p99/max/mean, calls/s and the CPU per call of the
 * server process `pid` (its own threads, not the children it starts) and of
 * this client, under `prefix`.
 */
export async function measure({ put, prefix, what, pid, call, calls, warmup }) {
  for (let i = 0; i < warmup; i++) await call();
  const lat = new Array(calls);
  const s0 = cpuNs(pid), c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const a = performance.now();
    await call();
    lat[i] = performance.now() - a;
  }
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  report(put, prefix, what, lat, wall, cpuNs(pid) - s0, c.user + c.system);
}
