// Benchmark: the Streaming Output panel's front end under a 10,000 chunks/s stream.
//
// Measures the real webview front end (media/src/streams, bundled as for VS Code) in Debian chromium,
// headless, driven by playwright-core, along the path a webview message takes in VS Code: a Web Worker
// stands in for the extension host (another thread, as the host is another process); it produces one
// stream at --rate chunks per second for --seconds, puts every chunk through the StreamBatcher the
// panel's host uses (client/src/vscode/common/streamBatcher.ts, one batch per 16 ms frame at most)
// and posts each batch to the page (the workbench), which posts it into a cross-origin iframe (the
// webview host, its own renderer process), whose script posts it on to the inner frame holding the
// front end (VS Code's active-frame).
// Baseline, same run: the same front end fed one message per chunk, unbatched. Reference: the same page
// for the same time with a stream that sends nothing (the machine's own frame times).
// Figures per run: animation-frame intervals (median, p95, longest) over the streaming window; the lag
// from a chunk's production to the frame that shows it (median, p95: the worker produces chunk n at
// t0 + n/rate, the page reads which chunk each frame shows); main-thread busy time (CDP TaskDuration);
// messages per second; whether every chunk arrived. Medians over --runs runs, modes alternating.
// Goal (the panel must not freeze): p95 frame ≤ 20 ms, longest frame ≤ 100 ms, p95 lag ≤ 100 ms.
//
// Run: node bench/streaming-panel.mjs [--rate N] [--seconds S] [--runs R]   (builds what it needs with
// esbuild into a temp folder; needs tools/vscode-host (playwright-core) and /usr/bin/chromium.)
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Math.max(1, Number(process.argv[at + 1]) || fallback) : fallback;
};
const RATE = arg('rate', 10_000);
const SECONDS = arg('seconds', 5);
const RUNS = arg('runs', 3);
const work = mkdtempSync(join(tmpdir(), 'mgp-bench-streams-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));

// ── 1. Build the front end and the batcher for the browser ──────────────────────────────────────
async function build() {
  const common = { bundle: true, platform: 'browser', target: 'es2022', logLevel: 'silent' };
  await esbuild.build({
    ...common,
    entryPoints: [join(root, 'media/src/streams/main.ts')],
    format: 'iife',
    outfile: join(work, 'streams.js'),
  });
  await esbuild.build({
    ...common,
    entryPoints: [join(root, 'client/src/vscode/common/streamBatcher.ts')],
    format: 'iife',
    globalName: 'Batching',
    outfile: join(work, 'batcher.js'),
  });
  // The panel's stylesheets in one file (the @imports resolved), with a dark theme's variables.
  const css = ['panel.css', 'toolPanels.css', 'streams.css']
    .map((f) => readFileSync(join(root, 'media', f), 'utf8').replace(/@import[^;]+;/g, ''))
    .join('\n');
  const theme =
    ':root { --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f; --vscode-editor-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace; --vscode-editor-font-size: 14px; --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff; --vscode-textCodeBlock-background: #2b2b2b; --vscode-widget-border: #313131; --vscode-focusBorder: #0078d4; --vscode-progressBar-background: #0078d4; }';
  writeFileSync(join(work, 'streams.css'), `${theme}\n${css}`);
  const frameStyle =
    '<style>html,body,iframe{margin:0;border:0;width:100%;height:100%;display:block}</style>';
  writeFileSync(
    join(work, 'workbench.html'),
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>workbench</title>${frameStyle}</head><body><iframe id="host"></iframe><script src="workbench.js"></script></body></html>`,
  );
  writeFileSync(join(work, 'workbench.js'), WORKBENCH);
  writeFileSync(
    join(work, 'host.html'),
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>webview host</title>${frameStyle}</head><body><iframe id="active-frame" src="content.html"></iframe>
<script>const inner = document.getElementById('active-frame'); window.addEventListener('message', (e) => inner.contentWindow.postMessage(e.data, '*'));</script></body></html>`,
  );
  writeFileSync(
    join(work, 'content.html'),
    `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" href="streams.css"><title>Streaming Output</title></head>
<body><main id="app"></main>
<script>window.acquireVsCodeApi = () => ({ postMessage: () => {} });</script>
<script src="probe.js"></script><script src="streams.js"></script></body></html>`,
  );
  writeFileSync(join(work, 'probe.js'), PROBE);
  writeFileSync(join(work, 'producer.js'), PRODUCER);
}

// The workbench: hands every message of the "extension host" to the webview host frame (another origin).
const WORKBENCH = `
const host = document.getElementById('host');
host.src = location.href.replace('127.0.0.1', 'localhost').replace('workbench.html', 'host.html');
window.startStream = (mode, rate, seconds) => {
  const worker = new Worker('producer.js');
  worker.onmessage = (event) => host.contentWindow.postMessage(event.data, '*');
  worker.postMessage({ mode, rate, seconds });
};
`;

// The front end's frame: records every frame and which chunk it shows, and the messages that arrive.
const PROBE = `
window.bench = { frames: [], shown: [], longTasks: [], messages: 0, running: false, done: false };
new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.longTasks.push(e.duration); }).observe({ entryTypes: ['longtask'] });
const now = () => performance.timeOrigin + performance.now();
window.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type === 'bench:start') { bench.t0 = data.t0; bench.running = true; return; }
  if (data?.type === 'bench:end') { bench.running = false; bench.produced = data.produced; setTimeout(() => (bench.done = true), 500); return; }
  bench.messages += 1;
});
(function frame() {
  if (bench.running) {
    bench.frames.push(performance.now());
    const panel = document.querySelector('section.stream');
    if (panel) bench.shown.push([now(), Number(panel.dataset.chunks || 0)]);
  }
  requestAnimationFrame(frame);
})();
`;

// The extension host's side: the stream's events, batched per frame or one message per chunk.
const PRODUCER = `
importScripts('batcher.js');
const LOREM = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(' ');
const view = (state, chunks) => ({ id: 's1', serverId: 'example', toolName: 'stream_text', traceId: 'bench', state, startedAt: Date.now(), chunks, text: '', textLength: 0 });
onmessage = ({ data: { mode, rate, seconds } }) => {
  const post = (updates) => postMessage({ type: 'batch', updates });
  const batcher = new Batching.StreamBatcher(post);
  postMessage({ type: 'streams', streams: [] });
  batcher.started(view('running', 0));
  const t0 = performance.timeOrigin + performance.now();
  postMessage({ type: 'bench:start', t0 });
  const total = mode === 'idle' ? 0 : rate * seconds;
  let produced = 0;
  const tick = () => {
    if (mode === 'idle' && performance.timeOrigin + performance.now() - t0 < seconds * 1000) { setTimeout(tick, 5); return; }
    const due = Math.min(total, Math.floor(((performance.timeOrigin + performance.now() - t0) * rate) / 1000));
    while (produced < due) {
      produced += 1;
      const word = LOREM[produced % LOREM.length] + ' ';
      if (mode === 'batched') batcher.text('s1', word, produced);
      else post([{ kind: 'text', id: 's1', appended: word, chunks: produced }]);
    }
    if (produced < total) { setTimeout(tick, 1); return; }
    batcher.flush();
    batcher.ended(view('done', produced));
    postMessage({ type: 'bench:end', produced });
  };
  setTimeout(tick, 0);
};
`;

// ── 2. Serve the folder (workers need an origin) ────────────────────────────────────────────────
function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((request, response) => {
    const file = join(
      work,
      new URL(request.url, 'http://x').pathname.replace(/^\/+/, '') || 'workbench.html',
    );
    let body;
    try {
      body = readFileSync(file);
    } catch {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ── 3. One run of one mode in a fresh page ──────────────────────────────────────────────────────
const quantile = (values, q) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))];
};
const median = (values) => quantile(values, 0.5);

async function measure(browser, url, mode) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  await page.goto(url);
  let content;
  while (!(content = page.frames().find((f) => f.url().endsWith('/content.html'))))
    await page.waitForTimeout(50);
  await content.waitForFunction(() => document.querySelector('h1'));
  // The webview's frames run in their own renderer (a cross-origin iframe): its main thread is measured.
  const cdp = await page.context().newCDPSession(content.parentFrame());
  await cdp.send('Performance.enable');
  const metric = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
    );
  const before = await metric();
  const started = Date.now();
  await page.evaluate(([m, r, s]) => window.startStream(m, r, s), [mode, RATE, SECONDS]);
  await content.waitForFunction(() => window.bench.done, undefined, {
    timeout: (SECONDS + 60) * 1000,
    polling: 200,
  });
  const wall = (Date.now() - started) / 1000;
  const after = await metric();
  const data = await content.evaluate(() => {
    const b = window.bench;
    const panel = document.querySelector('section.stream');
    return {
      frames: b.frames,
      shown: b.shown,
      t0: b.t0,
      produced: b.produced,
      messages: b.messages,
      longTasks: b.longTasks,
      finalChunks: Number(panel?.dataset.chunks ?? 0),
      state: panel?.dataset.state,
      domChars: panel?.querySelector('.output-text')?.textContent.length ?? 0,
      note: panel?.querySelector('.tail-note')?.hidden === false,
    };
  });
  await page.close();
  const intervals = data.frames.slice(1).map((t, i) => t - data.frames[i]);
  // Lag: a frame showing chunk n, at time T, shows it T − (t0 + n/rate) after it was produced.
  const lags = data.shown
    .filter(([, n]) => n > 0)
    .map(([at, n]) => at - (data.t0 + (n * 1000) / RATE));
  return {
    frameMedian: median(intervals),
    frameP95: quantile(intervals, 0.95),
    frameMax: Math.max(...intervals),
    frames: intervals.length,
    lagMedian: median(lags),
    lagP95: quantile(lags, 0.95),
    busy: (after.TaskDuration - before.TaskDuration) / wall,
    script: (after.ScriptDuration - before.ScriptDuration) / wall,
    layout:
      (after.LayoutDuration -
        before.LayoutDuration +
        after.RecalcStyleDuration -
        before.RecalcStyleDuration) /
      wall,
    messagesPerSecond: data.messages / SECONDS,
    longTasks: data.longTasks.length,
    complete: data.finalChunks === data.produced && data.state === 'done',
    produced: data.produced,
    domChars: data.domChars,
    capped: data.note,
  };
}

// ── 4. Run both modes, alternating, and print ───────────────────────────────────────────────────
await build();
const server = await serve();
const url = `http://127.0.0.1:${server.address().port}/workbench.html`;
const require = createRequire(join(root, 'tools/vscode-host/package.json'));
const { chromium } = require('playwright-core');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--site-per-process',
  ],
});
const version = browser.version();
const results = { batched: [], unbatched: [], idle: [] };
for (let run = 0; run < RUNS; run += 1) {
  for (const mode of run % 2
    ? ['unbatched', 'batched', 'idle']
    : ['idle', 'batched', 'unbatched']) {
    const result = await measure(browser, url, mode);
    results[mode].push(result);
    console.log(
      `run ${run + 1} ${mode.padEnd(9)} frames p95 ${result.frameP95.toFixed(1)} ms, longest ${result.frameMax.toFixed(1)} ms, lag p95 ${result.lagP95.toFixed(0)} ms, busy ${(result.busy * 100).toFixed(0)}% (script ${(result.script * 100).toFixed(0)}%, style+layout ${(result.layout * 100).toFixed(0)}%), ${result.complete ? 'all chunks shown' : 'NOT all chunks shown'}`,
    );
  }
}
await browser.close();
server.close();

const summary = (list) =>
  Object.fromEntries(
    Object.keys(list[0]).map((k) => [
      k,
      typeof list[0][k] === 'number' ? median(list.map((r) => r[k])) : list.every((r) => r[k]),
    ]),
  );
const b = summary(results.batched);
const u = summary(results.unbatched);
const idle = summary(results.idle);
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const line = (name, r) =>
  `  ${name.padEnd(30)} frames median ${f1(r.frameMedian)} ms  p95 ${f1(r.frameP95)} ms  longest ${f1(r.frameMax)} ms · lag median ${f1(r.lagMedian)} ms  p95 ${f1(r.lagP95)} ms · main thread busy ${(r.busy * 100).toFixed(0)}% · ${Math.round(r.messagesPerSecond).toLocaleString('en-US')} messages/s · long tasks ${r.longTasks} · ${r.complete ? 'every chunk shown' : 'chunks missing'}`;
const met = b.frameP95 <= 20 && b.frameMax <= 100 && b.lagP95 <= 100 && b.complete;
console.log('');
console.log(
  `machine: node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)} at the end; chromium ${version}, headless, software rendering`,
);
console.log(
  `the text kept in the DOM: ${b.domChars.toLocaleString('en-US')} characters (cap 200,000; tail note shown: ${b.capped ? 'yes' : 'no'})`,
);
console.log('');
console.log(
  `streaming-panel: ${RATE.toLocaleString('en-US')} chunks/s for ${SECONDS} s (${(RATE * SECONDS).toLocaleString('en-US')} chunks), medians of ${RUNS} runs each`,
);
console.log(line('batched (≤ 1 message / 16 ms)', b));
console.log(line('unbatched (1 message / chunk)', u));
console.log(
  `  ${'idle page (no chunks)'.padEnd(30)} frames median ${f1(idle.frameMedian)} ms  p95 ${f1(idle.frameP95)} ms  longest ${f1(idle.frameMax)} ms · main thread busy ${(idle.busy * 100).toFixed(0)}%  (this machine's floor)`,
);
console.log(
  `  ratio unbatched/batched: p95 frame ${(u.frameP95 / b.frameP95).toFixed(2)}×, longest frame ${(u.frameMax / b.frameMax).toFixed(2)}×, p95 lag ${(u.lagP95 / b.lagP95).toFixed(2)}×, main thread busy ${(u.busy / b.busy).toFixed(2)}×`,
);
console.log(
  `  goal (batched): p95 frame ≤ 20 ms, longest ≤ 100 ms, p95 lag ≤ 100 ms, every chunk shown: ${met ? 'met' : 'not met'}`,
);
