// Fifteen real MCP servers from npm started and listed at once, against the slowest of them alone,
// side by side in one run: `mgp tools --json` as a person runs it (the bundled CLI in its own
// process, from its start to its exit), the fleet and the slowest server alternating round by
// round. Each server is first timed alone once to find the slowest. Prints each round (wall time,
// tools listed, servers not ready, the CPU time of the command and every process it started), then
// the medians and their ratio, last. On a machine of few cores, the fleet's CPU time divided by
// the cores is a floor no parallel start can go below.
//
//   node bench/fleet-start.mjs [--rounds N]
//
// Needs `npm run build` and tools/servers installed (scripts/setup.sh). Goal (issue 37): the fleet
// in no more than the slowest alone plus one second, and every round complete.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { FLEET, fleetWorkspace, root } from './lib/fleet.mjs';

const argValue = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const rounds = argValue('--rounds', 3);
const cli = join(root, 'dist/cli.js');

/** CPU seconds (user and system) of every live process under `root`, itself included (/proc). */
function treeCpu(root) {
  const parent = new Map();
  const ticks = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(fields[1]));
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid) => {
    for (let at = pid; at > 1; at = parent.get(at) ?? 0) if (at === root) return true;
    return false;
  };
  return new Map([...ticks].filter(([pid]) => under(pid)).map(([pid, t]) => [pid, t / 100]));
}

/**
 * Runs the CLI and samples the CPU time of its process tree every 100 ms: the most seen of each
 * process, summed (a process's last 100 ms can be missed; servers idle then, waiting to be stopped).
 */
function runSampled(args, options) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const seen = new Map();
    const sample = () => {
      for (const [pid, cpu] of treeCpu(child.pid)) seen.set(pid, Math.max(seen.get(pid) ?? 0, cpu));
    };
    const timer = setInterval(sample, 100);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => {
      clearInterval(timer);
      const cpu = [...seen.values()].reduce((a, b) => a + b, 0);
      resolve({ status, stdout, stderr, cpu, own: seen.get(child.pid) ?? 0 });
    });
  });
}

/** One `mgp tools --json` over the servers `ids` (all when undefined). */
async function listOnce(ids) {
  const fleet = await fleetWorkspace({ ids, extra: ['connect_timeout_secs = 60'] });
  try {
    const start = process.hrtime.bigint();
    const run = await runSampled([cli, 'tools', '--json', '--cwd', fleet.ws], {
      cwd: fleet.ws,
      env: fleet.env,
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    let listing = { tools: [], not_ready: fleet.servers.map((s) => ({ server: s.id })) };
    try {
      listing = JSON.parse(run.stdout);
    } catch {
      process.stderr.write(
        `unreadable listing (exit ${run.status}): ${run.stderr.slice(0, 500)}\n`,
      );
    }
    const servers = new Set(listing.tools.map((tool) => tool.server));
    return {
      ms,
      cpu: run.cpu,
      own: run.own,
      tools: listing.tools.length,
      listed: servers.size,
      wanted: fleet.servers.length,
      notReady: listing.not_ready.map((entry) => entry.server),
    };
  } finally {
    fleet.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const f0 = (n) => n.toFixed(0);
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);

process.stderr.write(`each of the ${FLEET.length} servers alone, once…\n`);
const alone = [];
for (const server of FLEET) {
  const run = await listOnce([server.id]);
  alone.push({ id: server.id, ...run });
  process.stderr.write(`  ${server.id}: ${f0(run.ms)} ms, ${run.tools} tools\n`);
}
const slowest = alone.reduce((a, b) => (b.ms > a.ms ? b : a));
process.stderr.write(`slowest alone: ${slowest.id}\n`);

const rows = [];
for (let round = 1; round <= rounds; round++) {
  // Alternating which goes first, so neither always meets the other's leftovers.
  const order = round % 2 ? ['fleet', 'slowest'] : ['slowest', 'fleet'];
  const results = {};
  for (const side of order)
    results[side] = await listOnce(side === 'fleet' ? undefined : [slowest.id]);
  rows.push({ round, ...results });
  const { fleet, slowest: one } = results;
  process.stderr.write(
    `round ${round}: fleet ${f0(fleet.ms)} ms (${fleet.listed}/${fleet.wanted} servers, ${fleet.tools} tools), ${slowest.id} alone ${f0(one.ms)} ms\n`,
  );
}

console.log(`\nEach server alone (once, to find the slowest):\n`);
console.log('| server | ms | CPU s | tools |');
console.log('| --- | --- | --- | --- |');
for (const row of [...alone].sort((a, b) => b.ms - a.ms))
  console.log(`| ${row.id} | ${f0(row.ms)} | ${f1(row.cpu)} | ${row.tools} |`);

console.log(
  `\nThe fleet (${FLEET.length} servers) against ${slowest.id} alone, ${rounds} rounds:\n`,
);
console.log(
  "| round | fleet ms | servers listed | tools | not ready | CPU s (mgp's own) | slowest alone ms | CPU s (mgp's own) | ratio | fleet − slowest ms |",
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const { round, fleet, slowest: one } of rows)
  console.log(
    `| ${round} | ${f0(fleet.ms)} | ${fleet.listed}/${fleet.wanted} | ${fleet.tools} | ${fleet.notReady.join(', ') || 'none'} | ${f1(fleet.cpu)} (${f1(fleet.own)}) | ${f0(one.ms)} | ${f1(one.cpu)} (${f1(one.own)}) | ${f2(fleet.ms / one.ms)} | ${f0(fleet.ms - one.ms)} |`,
  );
const fleetMs = median(rows.map((r) => r.fleet.ms));
const oneMs = median(rows.map((r) => r.slowest.ms));
const complete = rows.filter((r) => r.fleet.notReady.length === 0).length;
const cores = availableParallelism();
const fleetCpu = median(rows.map((r) => r.fleet.cpu));
console.log(
  `\nmedians: fleet ${f0(fleetMs)} ms, ${slowest.id} alone ${f0(oneMs)} ms, ratio ${f2(fleetMs / oneMs)} (median of the rounds' ratios ${f2(median(rows.map((r) => r.fleet.ms / r.slowest.ms)))}), difference ${f0(fleetMs - oneMs)} ms (goal ≤ 1000); complete listings ${complete} of ${rounds}; the fleet's CPU time ${f1(fleetCpu)} s, over ${cores} cores a floor of ${f0((fleetCpu / cores) * 1000)} ms`,
);
