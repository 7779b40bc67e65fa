// Benchmark: what an agent's model receives, and what the agent loop costs (issue: agents use the kernel).
//
// The seventeen servers of the discovery corpus (test/fixtures/discovery/corpus.json, tools listed
// by real npm packages) run as real server processes behind a real kernel (bench/agent-context/
// corpusServer.mjs answers every call at once), with a durable audit log. Tokens are cl100k tokens of
// the tool definitions a model is given ({name, description, inputSchema}, names as the loop gives
// them):
// - all tools: every tool of every server in context (standard MCP, MGP §16.3 L0);
// - L2: the meta-tools only, what the loop offers at the first inference;
// - L3: the peak of a 10-inference session of the loop (AgentSession): at each inference the model
//   discovers one intent (a query of test/fixtures/discovery/queries-studied-00.json, seeded) and calls the best
//   tool the previous discovery answered; the tenth answers. Offered: meta-tools + session cache
//   (LRU under the default [kernel.tool_context_budget]) + the last discovery's tools. Median and
//   largest peak over the sessions.
// The loop's own cost per step: in alternating blocks, B steps of the loop (an in-process model
// that answers at once with a call of the corpus's everything.echo) against B direct kernel.call of
// the same tool as the same agent, after warm-up: per step minus per call, median over the blocks,
// in CPU time of this process (process.cpuUsage: the kernel's work, its audit writer thread
// included, not the server's) and in wall-clock time. The goal is judged on CPU time, which a
// shared machine's load does not inflate; wall-clock time is printed beside it.
// Goals: L2 ≥ 98% fewer tokens than all tools; loop overhead ≤ 1 ms per step.
//
// Run: node bench/agent-context.mjs [--sessions N (50)] [--block B (100)] [--blocks K (20)]
// (builds what it needs with esbuild; needs node_modules installed.)
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './discovery/synthetic.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const SESSIONS = arg('--sessions', 50);
const BLOCK = arg('--block', 100);
const BLOCKS = arg('--blocks', 20);
const work = mkdtempSync(join(tmpdir(), 'mgp-bench-agent-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const fixture = (name) =>
  JSON.parse(readFileSync(join(root, 'test/fixtures/discovery', name), 'utf8'));
const corpus = fixture('corpus.json').servers;
const { queries } = fixture('queries-studied-00.json');

async function build() {
  await esbuild.build({
    stdin: {
      contents: [
        "export { Kernel } from './client/src/kernel/kernel';",
        "export { AgentSession, ModelToolNames } from './client/src/kernel/agent';",
        "export { toolTokens, tokenizerSource } from './client/src/kernel/discovery';",
        "export { AuditLog } from './client/src/kernel/audit/auditLog';",
        "export { AuditTrail, KERNEL_AUDIT_COMMIT_DELAY_MS } from './client/src/kernel/audit/auditTrail';",
        "export { mergeConfigFiles, parseConfigText } from './client/src/kernel/config/load';",
        "export { NOBODY_TO_ASK } from './client/src/kernel/host/interaction';",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'bench-agent-entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: join(work, 'kernel.cjs'),
    logLevel: 'silent',
    define: { __MGP_VERSION__: '"bench"' },
  });
  // As in dist/: the audit log's writer thread and the cl100k tokenizer, each a bundle beside it.
  await esbuild.build({
    entryPoints: {
      auditWorker: join(root, 'client/src/kernel/audit/auditWorker.ts'),
      tokenizer: join(root, 'client/src/kernel/discovery/cl100k.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: work,
    logLevel: 'silent',
  });
  return createRequire(import.meta.url)(join(work, 'kernel.cjs'));
}

async function startKernel(m) {
  const server = join(root, 'bench/agent-context/corpusServer.mjs');
  const toml = corpus
    .map(
      (s) =>
        `[[servers]]\nid = "${s.id}"\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(server)}, "${s.id}"]\n`,
    )
    .join('\n');
  const path = join(work, 'mgp.toml');
  const config = m.mergeConfigFiles([
    m.parseConfigText(toml, { path, format: 'mgp', origin: 'workspace' }),
  ]);
  const trail = new m.AuditTrail(
    await m.AuditLog.open({
      directory: join(work, 'audit'),
      commitDelayMs: m.KERNEL_AUDIT_COMMIT_DELAY_MS,
    }),
  );
  const kernel = new m.Kernel({
    hostEnv: { PATH: process.env.PATH },
    secrets: { get: async () => undefined },
    interaction: m.NOBODY_TO_ASK,
    audit: trail,
    stateDir: join(work, 'state'),
    operator: { agentId: 'agent.bench-operator', kind: 'operator' },
  });
  await kernel.apply(config);
  const down = kernel.manager.list().filter((s) => s.state !== 'connected');
  if (down.length) throw new Error(`not connected: ${down.map((s) => s.id).join(', ')}`);
  return { kernel, trail };
}

/** Arguments that fit a schema's required properties (what a model would fill in). */
function argumentsFor(schema) {
  const args = {};
  for (const name of schema?.required ?? []) {
    const type = schema.properties?.[name]?.type;
    args[name] =
      type === 'number' || type === 'integer'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : 'x';
  }
  return args;
}

/** A model that answers at once from a script of turns (the LLM is the one part a bench fakes). */
function scriptedModel(next) {
  let index = 0;
  return {
    id: 'bench',
    label: 'in-process scripted model',
    chat: async (request) => ({ ...next(request, index++), model: 'bench' }),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function allToolTokens(m) {
  const names = new m.ModelToolNames();
  let tokens = 0;
  for (const server of corpus)
    for (const tool of server.tools)
      tokens += m.toolTokens({
        name: names.nameOf({ serverId: server.id, toolName: tool.name }),
        description: tool.description ?? '',
        inputSchema: tool.inputSchema ?? { type: 'object' },
      });
  return { tools: corpus.reduce((n, s) => n + s.tools.length, 0), tokens };
}

/** One 10-inference session; returns the tokens offered at each inference. */
async function session(m, kernel, random) {
  const agent = new m.AgentSession(kernel, { agentId: 'agent.bench' });
  let previous;
  const model = scriptedModel((_request, index) => {
    if (index === 9) return { text: 'Done.', toolCalls: [] };
    const calls = [];
    if (previous) calls.push(previous);
    const query = queries[Math.floor(random() * queries.length)].query;
    calls.push({
      id: `d${index}`,
      name: 'mgp_tools_discover',
      arguments: JSON.stringify({ query }),
    });
    return { text: '', toolCalls: calls };
  });
  const record = await agent.run({
    model,
    task: 'Work through the intents.',
    maxSteps: 10,
    loopGuard: 100,
    observer: {
      onToolResult: (call) => {
        if (call.name !== 'mgp_tools_discover' || call.decision !== 'ran') return;
        const best = JSON.parse(call.result).tools?.[0];
        const entry = best && kernel.discovery.index.get(best.tool_id);
        previous = entry && {
          id: `c${call.id}`,
          name: best.call_as,
          arguments: JSON.stringify(argumentsFor(entry.inputSchema)),
        };
      },
    },
  });
  agent.close();
  if (record.steps.length !== 10)
    throw new Error(`a session ran ${record.steps.length} inferences`);
  return record.steps.map((s) => s.context_tokens);
}

/** B steps of the loop calling everything.echo, and B direct calls of it, per step / per call in ms. */
async function overheadBlock(m, kernel, agentCaller, first) {
  const timed = async (work) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await work();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { wall: wall / BLOCK, cpu: (used.user + used.system) / 1000 / BLOCK };
  };
  const direct = () =>
    timed(async () => {
      for (let i = 0; i < BLOCK; i++)
        await kernel.call({
          serverId: 'everything',
          toolName: 'echo',
          args: { message: `call ${i}` },
          caller: agentCaller,
        });
    });
  const loop = async () => {
    const agent = new m.AgentSession(kernel, { agentId: 'agent.bench' });
    const name = agent.tools.callName('everything', 'echo');
    const model = scriptedModel((_request, index) =>
      index < BLOCK
        ? {
            text: '',
            toolCalls: [
              { id: `e${index}`, name, arguments: JSON.stringify({ message: `call ${index}` }) },
            ],
          }
        : { text: 'Done.', toolCalls: [] },
    );
    let record;
    const times = await timed(async () => {
      record = await agent.run({ model, task: 'echo', maxSteps: BLOCK + 1 });
    });
    agent.close();
    if (record.steps.slice(0, BLOCK).some((s) => s.tool_calls[0]?.decision !== 'ran'))
      throw new Error('a loop step did not run its call');
    return times;
  };
  if (first === 'direct') {
    const d = await direct();
    return { direct: d, loop: await loop() };
  }
  const l = await loop();
  return { direct: await direct(), loop: l };
}

const m = await build();
const started = Date.now();
const { kernel, trail } = await startKernel(m);
if (m.tokenizerSource() !== 'bundle')
  throw new Error(`tokenizer loaded from ${m.tokenizerSource()}, not its bundle`);

const all = allToolTokens(m);
const random = seededRandom(11);
const peaks = [];
let l2;
for (let s = 0; s < SESSIONS; s++) {
  const offered = await session(m, kernel, random);
  l2 ??= offered[0];
  peaks.push(Math.max(...offered));
}

const agentCaller = { agentId: 'agent.bench', kind: 'agent' };
for (let w = 0; w < 3; w++) await overheadBlock(m, kernel, agentCaller, w % 2 ? 'loop' : 'direct');
const blocks = [];
for (let b = 0; b < BLOCKS; b++)
  blocks.push(await overheadBlock(m, kernel, agentCaller, b % 2 ? 'loop' : 'direct'));
await trail.flush();
await kernel.dispose();
await trail.close();

const reduction = (tokens) => 100 * (1 - tokens / all.tokens);
const f1 = (n) => n.toFixed(1);
const f3 = (n) => n.toFixed(3);
const p90 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];
const side = (kind) => {
  const extra = blocks.map((b) => b.loop[kind] - b.direct[kind]);
  return {
    direct: median(blocks.map((b) => b.direct[kind])),
    loop: median(blocks.map((b) => b.loop[kind])),
    overhead: median(extra),
    p90: p90(extra),
  };
};
const cpu = side('cpu');
const wall = side('wall');
const overhead = cpu.overhead;
const peak = median(peaks);
console.log(
  `agent-context: ${corpus.length} servers, ${all.tools} tools; ${SESSIONS} sessions; ${BLOCKS} blocks of ${BLOCK}; ${availableParallelism()} CPUs, load ${loadavg()[0].toFixed(2)}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`  tokens (cl100k, tool definitions the model receives):`);
console.log(`    all tools in context   ${all.tokens}`);
console.log(`    L2 meta-tools only     ${l2} (${f1(reduction(l2))}% fewer)`);
console.log(
  `    L3 10-step session peak median ${peak} (${f1(reduction(peak))}% fewer), largest ${Math.max(...peaks)} (${f1(reduction(Math.max(...peaks)))}% fewer)`,
);
console.log(`  loop cost per step (ms; medians over blocks):`);
for (const [name, t] of [
  ['CPU ', cpu],
  ['wall', wall],
])
  console.log(
    `    ${name}: direct kernel.call ${f3(t.direct)}; loop step ${f3(t.loop)}; overhead ${f3(t.overhead)} (p90 ${f3(t.p90)})`,
  );
const goal = (ok) => (ok ? 'met' : 'NOT met');
console.log(
  `  goals: L2 ≥ 98% fewer tokens ${goal(reduction(l2) >= 98)} (${f1(reduction(l2))}%); loop overhead ≤ 1 ms/step ${goal(overhead <= 1)} (${f3(overhead)} ms CPU; wall ${f3(wall.overhead)} ms)`,
);
