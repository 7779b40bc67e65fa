import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import { repoRoot } from '../repoRoot';
import { HANG_MS, whileProgressing } from '../support/patience';
import {
  eventually,
  everythingServer,
  fixtureServer,
  node,
  startKernel,
  startScriptedModel,
  TestKernel,
  textOf,
} from './support/kernelHarness';

const root = repoRoot();
const TRANSPORTS: {
  name: string;
  start?: 'streamableHttp' | 'sse';
  config(url: string, extra: string): string;
}[] = [
  {
    name: 'stdio',
    config: (_url, extra) =>
      `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n${extra}`,
  },
  {
    name: 'Streamable HTTP',
    start: 'streamableHttp',
    config: (url, extra) =>
      `[[servers]]\nid = "everything"\ntransport = "http"\nurl = "${url}/mcp"\n${extra}`,
  },
  {
    name: 'SSE',
    start: 'sse',
    config: (url, extra) =>
      `[[servers]]\nid = "everything"\ntransport = "sse"\nurl = "${url}/sse"\n${extra}`,
  },
];

/** A fixture server (test/fixtures/servers) whose `echo` needs no approval. */
const fixture = (id: string, script: string, extra = '', args: string[] = []) =>
  `[[servers]]\nid = "${id}"\ncommand = ${node}\nargs = [${[fixtureServer(script), ...args.map((a) => JSON.stringify(a))].join(', ')}]\napproved_tools = ["echo"]\n${extra}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** server-everything over HTTP (streamableHttp or sse) on a free loopback port. */
async function httpEverything(
  kind: 'streamableHttp' | 'sse',
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), kind],
    { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on(
      'data',
      (chunk: Buffer) => /listening|running/i.test(chunk.toString()) && resolve(),
    );
    child.on('exit', (code) => reject(new Error(`server-everything ${kind} exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

describe('kernel: base MCP, client side, against real servers', function () {
  let t: TestKernel;
  afterEach(async () => t?.dispose());

  // Every feature of server-everything, over each of its transports: stdio (a process per kernel), and
  // Streamable HTTP and legacy SSE (one server process for the whole describe, a session per kernel).
  for (const transport of TRANSPORTS) {
    describe(`server-everything over ${transport.name}`, () => {
      let http: { url: string; child: ChildProcess } | undefined;
      const everything = (extra = '') => transport.config(http?.url ?? '', extra);
      before(async () => {
        if (transport.start) http = await httpEverything(transport.start);
      });
      after(() => http?.child.kill());

      it('sampling: the operator approves, the request goes to the model, the answer back to the server', async () => {
        const model = await startScriptedModel({
          rules: [{ match: 'haiku', reply: 'An old silent pond' }],
        });
        try {
          t = await startKernel(everything(), {
            configure: (kernel) =>
              kernel.models.setProviders([
                new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
              ]),
          });
          const result = await t.kernel.call({
            serverId: 'everything',
            toolName: 'trigger-sampling-request',
            args: { prompt: 'write a haiku', maxTokens: 50 },
          });
          assert.match(textOf(result.result), /An old silent pond/);
          assert.equal(t.operator.count('sampling'), 1);
          assert.match(JSON.stringify(model.requests[0].messages), /write a haiku/);
        } finally {
          await model.close();
        }
      });

      it('sampling: rejected by the operator, or with no model configured, the server gets a clear error', async () => {
        t = await startKernel(everything());
        const noModel = await t.kernel
          .call({
            serverId: 'everything',
            toolName: 'trigger-sampling-request',
            args: { prompt: 'hi', maxTokens: 10 },
          })
          .then(
            (o) => textOf(o.result),
            (e: Error) => e.message,
          );
        assert.match(noModel, /no model is configured/);
        t.operator.samplingAction = 'reject';
        const rejected = await t.kernel
          .call({
            serverId: 'everything',
            toolName: 'trigger-sampling-request',
            args: { prompt: 'hi', maxTokens: 10 },
          })
          .then(
            (o) => textOf(o.result),
            (e: Error) => e.message,
          );
        assert.match(rejected, /rejected/);
      });

      it("elicitation (form): the operator's answers are checked against the requested schema and returned", async () => {
        t = await startKernel(everything());
        t.operator.elicitContent = {
          name: 'Ada Lovelace',
          check: true,
          integer: 42,
          email: 'ada@example.com',
        };
        const result = await t.kernel.call({
          serverId: 'everything',
          toolName: 'trigger-elicitation-request',
          args: {},
        });
        assert.match(textOf(result.result), /Ada Lovelace/);
        t.operator.elicitContent = undefined;
        const declined = await t.kernel.call({
          serverId: 'everything',
          toolName: 'trigger-elicitation-request',
          args: {},
        });
        assert.match(textOf(declined.result), /decline/i);
      });

      it('elicitation (URL), on the request path and the error path: the person is asked, then the call goes on', async () => {
        t = await startKernel(everything());
        t.operator.elicitContent = {};
        const viaRequest = await t.kernel.call({
          serverId: 'everything',
          toolName: 'trigger-url-elicitation',
          args: { url: 'https://example.com/authorize' },
        });
        assert.match(textOf(viaRequest.result), /accept/i);
        const viaError = await t.kernel.call({
          serverId: 'everything',
          toolName: 'trigger-url-elicitation',
          args: { url: 'https://example.com/connect', errorPath: true },
        });
        assert.notEqual(viaError.result.isError, true, textOf(viaError.result));
        const asked = t.operator.asked
          .filter((a) => a.kind === 'elicit')
          .map((a) => (a.detail as { params: { mode?: string; url?: string } }).params);
        assert.deepEqual(asked[0], {
          ...asked[0],
          mode: 'url',
          url: 'https://example.com/authorize',
        });
        assert.ok(
          asked.length >= 2 && asked.slice(1).every((p) => p.mode === 'url'),
          JSON.stringify(asked),
        );
      });

      it('elicitation (URL): never offers an address that is not http(s), nor asks about one', async () => {
        // The server chooses the address; this one takes it as an argument, so the kernel's own URL
        // check of arguments is switched off for it to let the server send what it likes.
        t = await startKernel(
          everything('[servers.tools.trigger-url-elicitation]\nvalidator = "none"\n'),
        );
        t.operator.elicitContent = {};
        for (const url of [
          'file:///etc/passwd',
          'vscode://vscode.git/clone?url=x',
          'command:workbench.action.terminal.new',
          'https://github.com@evil.example/login',
        ]) {
          const viaRequest = await t.kernel.call({
            serverId: 'everything',
            toolName: 'trigger-url-elicitation',
            args: { url },
          });
          assert.match(textOf(viaRequest.result), /decline/i, url);
        }
        assert.equal(t.operator.count('elicit'), 0, 'nobody was asked to open them');
      });

      it('roots are the workspace folders', async () => {
        t = await startKernel(everything());
        assert.match(
          textOf(
            (await t.kernel.call({ serverId: 'everything', toolName: 'get-roots-list', args: {} }))
              .result,
          ),
          new RegExp(t.dir.replace(/[/\\]/g, '.')),
        );
      });

      it('a tool that requires tasks runs as a task', async () => {
        t = await startKernel(everything());
        const progress: string[] = [];
        const result = await t.kernel.call({
          serverId: 'everything',
          toolName: 'simulate-research-query',
          args: { topic: 'tide pools' },
          onProgress: (p) => progress.push(p.message ?? ''),
        });
        assert.match(textOf(result.result), /tide pools/i);
        assert.ok(
          progress.some((p) => /task/.test(p)),
          progress.join(' | '),
        );
      });

      it('resources: pages, templates, read, and subscribe → updated', async () => {
        t = await startKernel(everything());
        const server = t.kernel.manager.get('everything');
        assert.ok(server.resources.length > 0);
        assert.ok(server.resourceTemplates.length > 0);
        const read = await server.session().readResource(server.resources[0].uri);
        assert.ok(read.contents.length > 0);
        const updates: string[] = [];
        t.kernel.manager.bus.on('resourceUpdated', (u) => updates.push(u.uri));
        await server.subscribe(server.resources[0].uri);
        await t.kernel.call({
          serverId: 'everything',
          toolName: 'toggle-subscriber-updates',
          args: {},
        });
        await eventually(
          () => updates.includes(server.resources[0].uri),
          'a resources/updated notification',
        );
      });

      it('pagination: every page of tools, resources and prompts; tools/list_changed → listed again', async () => {
        t = await startKernel(
          `[[servers]]\nid = "pages"\ncommand = ${node}\nargs = [${fixtureServer('paginated.js')}]\n`,
        );
        const server = t.kernel.manager.get('pages');
        assert.deepEqual(
          [server.tools.length, server.resources.length, server.prompts.length],
          [26, 23, 12],
        );
        const changed = new Promise((resolve) => t.kernel.manager.bus.once('listChanged', resolve));
        await t.kernel.call({ serverId: 'pages', toolName: 'grow', args: {} });
        await changed;
        assert.equal(server.tools.length, 27);
        assert.ok(t.kernel.tools().some((entry) => entry.name === 'grown_26'));
      });

      it("the protocol trace: every message both ways, when the server's trace is on", async () => {
        const lines: string[] = [];
        t = await startKernel(everything(), {
          trace: (id) => id === 'everything',
          configure: (kernel) =>
            kernel.manager.bus.on('trace', (line) =>
              lines.push(
                `${line.direction} ${'method' in line.message ? line.message.method : 'result'}`,
              ),
            ),
        });
        assert.ok(
          lines.includes('send initialize') &&
            lines.includes('receive result') &&
            lines.includes('send tools/list'),
          lines.slice(0, 8).join(', '),
        );
      });

      it('prompts list and get', async () => {
        t = await startKernel(everything());
        const server = t.kernel.manager.get('everything');
        const simple = server.prompts.find((p) => !(p.arguments ?? []).some((a) => a.required));
        assert.ok(simple);
        assert.ok((await server.session().getPrompt(simple.name, {})).messages.length > 0);
      });

      it("logging: notifications/message reach the server's log, at the level set", async () => {
        t = await startKernel(everything());
        const lines: string[] = [];
        t.kernel.manager.bus.on(
          'log',
          (line) => line.server_id === 'everything' && lines.push(`${line.level} ${line.message}`),
        );
        await t.kernel.call({
          serverId: 'everything',
          toolName: 'toggle-simulated-logging',
          args: {},
        });
        await eventually(
          () =>
            lines.some(
              (l) =>
                /^(info|notice|warning|error|critical|alert|emergency) /.test(l) &&
                !l.startsWith('info restarting'),
            ),
          'a log notification',
        );
        assert.ok(
          !lines.some((l) => l.startsWith('debug ')),
          'below the level set (info): not sent',
        );
      });

      it('progress notifications reach the caller; cancelling sends notifications/cancelled and rejects', async () => {
        t = await startKernel(everything());
        const progress: number[] = [];
        await t.kernel.call({
          serverId: 'everything',
          toolName: 'trigger-long-running-operation',
          args: { duration: 1, steps: 4 },
          onProgress: (p) => progress.push(p.progress),
        });
        assert.ok(progress.length >= 2, `progress ${progress.join(',')}`);
        const abort = new AbortController();
        const call = t.kernel.call({
          serverId: 'everything',
          toolName: 'trigger-long-running-operation',
          args: { duration: 10, steps: 10 },
          signal: abort.signal,
          // Cancelled once it is on its way to the server, in the next task.
          onSent: () => setImmediate(() => abort.abort(new Error('user cancelled'))),
        });
        await assert.rejects(call, /cancel/i);
        assert.equal(t.kernel.manager.get('everything').state, 'connected');
      });

      it('mgp.health.ping and mgp.health.status answer; mgp.lifecycle.shutdown drains and disconnects', async () => {
        t = await startKernel(everything());
        const ping = await t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.health.ping',
          args: { server_id: 'everything' },
        });
        assert.equal((ping.result.structuredContent as { status: string }).status, 'healthy');
        const status = await t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.health.status',
          args: { server_id: 'everything' },
        });
        assert.ok(
          (status.result.structuredContent as { tools_available: number }).tools_available > 5,
        );
        const transitions: string[] = [];
        t.kernel.manager.bus.on('transition', (tr) => transitions.push(tr.new_state));
        await t.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.lifecycle.shutdown',
          args: { server_id: 'everything', reason: 'operator_request', timeout_ms: 1000 },
        });
        await eventually(
          () => t.kernel.manager.get('everything').state === 'disconnected',
          'disconnected',
        );
        assert.deepEqual(transitions, ['draining', 'disconnected']);
        await assert.rejects(
          t.kernel.call({ serverId: 'everything', toolName: 'echo', args: { message: 'late' } }),
          (e: { wireCode?: number }) => e.wireCode === 2000,
        );
      });
    });
  }

  describe('over the network', () => {
    let http: { url: string; child: ChildProcess } | undefined;
    afterEach(() => http?.child.kill());

    it('Streamable HTTP: connects, keeps the session id, calls tools', async () => {
      http = await httpEverything('streamableHttp');
      t = await startKernel(
        `[[servers]]\nid = "remote"\ntransport = "http"\nurl = "${http.url}/mcp"\n`,
      );
      assert.equal(t.kernel.manager.get('remote').state, 'connected');
      assert.match(
        textOf(
          (
            await t.kernel.call({
              serverId: 'remote',
              toolName: 'echo',
              args: { message: 'over http' },
            })
          ).result,
        ),
        /over http/,
      );
    });

    it('legacy SSE, configured, and as the fallback when POST initialize answers 4xx', async () => {
      http = await httpEverything('sse');
      t = await startKernel(
        `[[servers]]\nid = "sse"\ntransport = "sse"\nurl = "${http.url}/sse"\n\n[[servers]]\nid = "guess"\ntransport = "http"\nurl = "${http.url}/sse"\n`,
      );
      const logs: string[] = [];
      t.kernel.manager.bus.on('log', (line) => logs.push(line.message));
      assert.match(
        textOf(
          (await t.kernel.call({ serverId: 'sse', toolName: 'echo', args: { message: 'via sse' } }))
            .result,
        ),
        /via sse/,
      );
      assert.equal(t.kernel.manager.get('guess').state, 'connected');
      assert.match(
        textOf(
          (
            await t.kernel.call({
              serverId: 'guess',
              toolName: 'echo',
              args: { message: 'fell back' },
            })
          ).result,
        ),
        /fell back/,
      );
    });
  });

  describe('other servers from npm', () => {
    it('server-filesystem takes its allowed folders from our roots', async () => {
      const fs = JSON.stringify(
        join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
      );
      t = await startKernel(
        `[[servers]]\nid = "files"\ncommand = ${node}\nargs = [${fs}]\n[servers.tools.list_allowed_directories]\nrisk_level = "safe"\n`,
      );
      await eventually(
        async () =>
          textOf(
            (
              await t.kernel.call({
                serverId: 'files',
                toolName: 'list_allowed_directories',
                args: {},
              })
            ).result,
          ).includes(t.dir),
        'the root in the allowed directories',
      );
    });

    it('a folder added to the roots reaches server-filesystem: it asks again and allows it', async () => {
      const fs = JSON.stringify(
        join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
      );
      const added = mkdtempSync(join(tmpdir(), 'mgp-root-'));
      let roots = (dir: string) => [dir];
      t = await startKernel(
        `[[servers]]\nid = "files"\ncommand = ${node}\nargs = [${fs}]\n[servers.tools.list_allowed_directories]\nrisk_level = "safe"\n`,
        { roots: (dir) => roots(dir).map((folder) => ({ uri: `file://${folder}` })) },
      );
      // A sandboxed server restarts to be given the new folder: a call in between fails.
      const allowed = async () =>
        t.kernel
          .call({ serverId: 'files', toolName: 'list_allowed_directories', args: {} })
          .then((outcome) => textOf(outcome.result))
          .catch(() => '');
      await eventually(async () => (await allowed()).includes(t.dir), 'the first root allowed');
      assert.ok(!(await allowed()).includes(added));
      roots = (dir) => [dir, added];
      t.kernel.manager.rootsChanged();
      await eventually(async () => (await allowed()).includes(added), 'the added root allowed');
    });

    it('server-memory stores and reads a knowledge graph', async () => {
      const memory = JSON.stringify(
        join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
      );
      // In the workspace: a sandboxed server writes nowhere else.
      const dir = mkdtempSync(join(tmpdir(), 'mgp-memory-'));
      const file = join(dir, 'memory.jsonl');
      t = await startKernel(
        `[[servers]]\nid = "memory"\ncommand = ${node}\nargs = [${memory}]\napproved_tools = ["create_entities"]\n[servers.env]\nMEMORY_FILE_PATH = ${JSON.stringify(file)}\n`,
        { dir },
      );
      await t.kernel.call({
        serverId: 'memory',
        toolName: 'create_entities',
        args: {
          entities: [
            { name: 'MGP Kernel', entityType: 'project', observations: ['hosts tool servers'] },
          ],
        },
      });
      assert.match(
        textOf(
          (await t.kernel.call({ serverId: 'memory', toolName: 'read_graph', args: {} })).result,
        ),
        /hosts tool servers/,
      );
      assert.match(readFileSync(file, 'utf8'), /MGP Kernel/);
    });
  });

  describe('what goes on the wire', () => {
    it('the trace id goes out in params._mgp to a server that negotiated MGP, and not to a standard MCP server (MGP §6.5, §17.2)', async () => {
      t = await startKernel(
        `${fixture('plain', 'params-echo.js')}\n${fixture('speaksMgp', 'params-echo.js', '', ['--mgp'])}`,
      );
      const sent = async (serverId: string) => {
        const outcome = await t.kernel.call({ serverId, toolName: 'echo', args: { text: 'x' } });
        return {
          traceId: outcome.traceId,
          params: (outcome.result.structuredContent as { params: Record<string, unknown> }).params,
        };
      };
      const mgp = await sent('speaksMgp');
      assert.deepEqual(mgp.params._mgp, { trace_id: mgp.traceId });
      const plain = await sent('plain');
      assert.deepEqual(plain.params, { name: 'echo', arguments: { text: 'x' } });
      // The kernel's own audit record keeps the trace id either way.
      assert.ok(
        (await t.ofType('TOOL_EXECUTED')).some(
          (r) => r.trace_id === plain.traceId && r.target.server_id === 'plain',
        ),
      );
    });
  });

  describe('misbehaving servers do not take the kernel down', () => {
    it('a 50 MB message: refused with 3001, not left to time out; the connection keeps working', async () => {
      t = await startKernel(fixture('huge', 'huge-message.js'));
      await assert.rejects(
        t.kernel.call({ serverId: 'huge', toolName: 'echo', args: { text: 'x' } }),
        (e: { code?: number; message: string }) =>
          e.code === 3001 && /exceeds the maximum of 10485760 bytes/.test(e.message),
      );
      assert.equal(t.kernel.manager.get('huge').state, 'connected');
      await t.kernel.manager.get('huge').session().ping();
    });

    it('invalid JSON lines are reported and skipped; the real answer still arrives', async () => {
      t = await startKernel(fixture('garbage', 'invalid-json.js'));
      assert.match(
        textOf(
          (
            await t.kernel.call({
              serverId: 'garbage',
              toolName: 'echo',
              args: { text: 'still here' },
            })
          ).result,
        ),
        /still here/,
      );
    });

    it('a flood of 100,000 notifications: every one logged, calls answered during it', async () => {
      let count = 0;
      // The call waits behind the flood in the pipe: only a hang may time it out.
      const patient = `request_timeout_secs = ${HANG_MS / 1000}\n`;
      t = await startKernel(fixture('flood', 'notification-flood.js', patient), {
        configure: (kernel) =>
          kernel.manager.bus.on('log', (line) => line.message.startsWith('flood ') && count++),
      });
      assert.match(
        textOf(
          (await t.kernel.call({ serverId: 'flood', toolName: 'echo', args: { text: 'during' } }))
            .result,
        ),
        /during/,
      );
      await whileProgressing(
        () => count === 100000,
        () => count,
        'the flood of 100,000',
      );
    });

    it('a server exiting during a call: the call fails clearly, the server is restarted, the kernel serves on', async () => {
      t = await startKernel(
        fixture('quitter', 'exit-during-call.js', '[servers.mgp]\nbackoff_base_ms = 50\n'),
      );
      await assert.rejects(
        t.kernel.call({ serverId: 'quitter', toolName: 'echo', args: { text: 'x' } }),
        /closed|Connection/i,
      );
      await eventually(() => t.kernel.manager.get('quitter').state === 'connected', 'restarted');
      assert.equal((await t.ofType('TOOL_EXECUTED')).at(-1)?.result, 'FAILURE');
    });

    it('a server that crashes on start: backoff restarts, then error with restart_limit_exceeded in the audit trail', async () => {
      t = await startKernel(
        fixture(
          'crashy',
          'crash-on-start.js',
          '[servers.mgp]\nmax_restarts = 2\nbackoff_base_ms = 40\nbackoff_max_ms = 80\n',
        ),
      );
      await eventually(
        async () =>
          (await t.ofType('SERVER_DISCONNECTED')).some(
            (r) => r.details.reason === 'restart_limit_exceeded',
          ),
        'SERVER_DISCONNECTED restart_limit_exceeded',
      );
      assert.equal(t.kernel.manager.get('crashy').state, 'error');
      assert.match(
        textOf(
          (
            await t.kernel.call({
              serverId: 'mgp',
              toolName: 'mgp.health.ping',
              args: { server_id: 'crashy' },
            })
          ).result,
        ),
        /unhealthy/,
      );
    });
  });
});

/**
 * A proxy in front of a Streamable HTTP server that cuts the first streamed tools/call response after
 * its first event with an id, as a dropped connection would, and records the requests it forwards.
 */
function cuttingProxy(
  upstream: string,
): Promise<{ url: string; resumed: string[]; cut: number; close(): Promise<void> }> {
  const state = { resumed: [] as string[], cut: 0 };
  const server = createHttpServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(body).toString();
      if (req.method === 'GET' && req.headers['last-event-id'])
        state.resumed.push(String(req.headers['last-event-id']));
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([k]) => !['host', 'connection', 'content-length'].includes(k))
          .map(([k, v]) => [k, String(v)]),
      );
      const answer = await fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'POST' ? text : undefined,
      });
      const responseHeaders: Record<string, string> = {};
      answer.headers.forEach((value, key) => (responseHeaders[key] = value));
      res.writeHead(answer.status, responseHeaders);
      res.flushHeaders();
      if (!answer.body) return res.end();
      const cutThis =
        state.cut === 0 &&
        text.includes('trigger-long-running-operation') &&
        (answer.headers.get('content-type') ?? '').includes('text/event-stream');
      const reader = answer.body.getReader();
      let seen = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return res.end();
        await new Promise<void>((written) => res.write(value, () => written()));
        seen += Buffer.from(value).toString();
        if (cutThis && /^id: .+$/m.test(seen) && /\n\n/.test(seen)) {
          state.cut++;
          await reader.cancel();
          // The connection drops mid-response: what was written goes out first, then the FIN.
          return res.socket?.end();
        }
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        get resumed() {
          return state.resumed;
        },
        get cut() {
          return state.cut;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

describe('kernel: Streamable HTTP resumption', function () {
  it('resumes a streamed response cut mid-way with Last-Event-ID, and the call completes', async () => {
    const http = await httpEverything('streamableHttp');
    const proxy = await cuttingProxy(http.url);
    const t = await startKernel(
      `[[servers]]\nid = "remote"\ntransport = "http"\nurl = "${proxy.url}/mcp"\n`,
    );
    try {
      // Short enough to finish before the client comes back (the SDK waits about a second): the server's
      // event store then replays everything after Last-Event-ID, the result included.
      const result = await t.kernel.call({
        serverId: 'remote',
        toolName: 'trigger-long-running-operation',
        args: { duration: 0.5, steps: 2 },
      });
      assert.match(textOf(result.result), /completed/i);
      assert.equal(proxy.cut, 1, 'the stream was cut once');
      assert.ok(proxy.resumed.length >= 1, 'the client came back with Last-Event-ID');
    } finally {
      await t.dispose();
      await proxy.close();
      http.child.kill();
    }
  });
});
