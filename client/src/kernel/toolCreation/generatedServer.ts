/**
 * The program a generated tool runs in (generatedTools.ts; MGP §15.4, §16.6): a minimal MCP server
 * over stdio (newline-delimited JSON-RPC) with one tool, started with an empty environment. The tool's
 * code runs in QuickJS compiled to WebAssembly (npm `quickjs-emscripten-core` with the
 * `@jitl/quickjs-wasmfile-release-sync` build): a JavaScript engine of its own, holding no object of
 * this process — no `process`, `require`, file, network or timer — only `args` (a JSON copy) and the
 * language's built-ins (JSON, Math…). `node:vm`, used before, is no security boundary: code there
 * reached the host's `process` through `JSON[k][k]('return process')()`. Each call gets a fresh
 * runtime with a memory limit, a stack limit and a deadline; only a string crosses back. The deadline
 * is checked between JavaScript operations: one long native built-in (filling a huge array) runs
 * until it ends or meets the memory limit, and the kernel's request timeout bounds the caller.
 *
 * Usage: node generatedServer.js TOOL.json — { name, description, inputSchema, code }.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  shouldInterruptAfterDeadline,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { generatedFunction } from './generatedSource';

export const QUICKJS_WASM = 'quickjs.wasm';
const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
const STACK_LIMIT_BYTES = 512 * 1024;
/** Time for the code itself; its promise must settle within it (nothing inside can wait on anything). */
const DEADLINE_MS = 2000;

interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  code: string;
}

function wasmPath(): string {
  const bundled = join(__dirname, QUICKJS_WASM);
  return existsSync(bundled)
    ? bundled
    : createRequire(__filename).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
}

let engine: Promise<QuickJSWASMModule> | undefined;

function quickJs(): Promise<QuickJSWASMModule> {
  if (engine) return engine;
  const bytes = readFileSync(wasmPath());
  const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return (engine = newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmBinary })));
}

/** What the tool's code did wrong, in its own words ("TypeError: bad input"). */
class ToolError extends Error {}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const e = error as { name?: unknown; message?: unknown };
    return `${typeof e.name === 'string' ? `${e.name}: ` : ''}${String(e.message)}`;
  }
  return String(error);
}

/** Runs the tool's code on `args` in a fresh QuickJS runtime; the result as text. */
export async function runInIsolate(code: string, args: unknown, name = 'tool'): Promise<string> {
  const runtime = (await quickJs()).newRuntime();
  runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
  runtime.setMaxStackSize(STACK_LIMIT_BYTES);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + DEADLINE_MS));
  const vm = runtime.newContext();
  try {
    const input = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(args ?? {})})`));
    vm.setProp(vm.global, 'args', input);
    input.dispose();
    const source = `${generatedFunction(code)}(args).then((v) => (typeof v === 'string' ? v : JSON.stringify(v)))`;
    const promise = vm.unwrapResult(vm.evalCode(source, `${name}.js`));
    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const thrown = vm.dump(jobs.error);
        jobs.error.dispose();
        throw new ToolError(describe(thrown));
      }
      if (jobs.value === 0) break;
    }
    const state = vm.getPromiseState(promise);
    promise.dispose();
    if (state.type === 'pending')
      throw new ToolError(
        'the tool waited on something that never came (there are no timers or I/O)',
      );
    if (state.type === 'rejected') {
      const reason = vm.dump(state.error);
      state.error.dispose();
      throw new ToolError(describe(reason));
    }
    const text = vm.typeof(state.value) === 'string' ? vm.getString(state.value) : 'undefined';
    state.value.dispose();
    return text;
  } catch (error) {
    // unwrapResult throws with what the code threw (QuickJS's own error, dumped) as the cause.
    if (error instanceof ToolError) throw error;
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    throw new ToolError(describe(cause));
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function serve(tool: Tool): void {
  const send = (message: object) =>
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const handle = async (request: {
    id?: unknown;
    method?: string;
    params?: Record<string, unknown>;
  }) => {
    const { id, method, params = {} } = request;
    if (id === undefined) return;
    if (method === 'initialize')
      return send({
        id,
        result: {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: `generated-${tool.name}`, version: '1.0.0' },
        },
      });
    if (method === 'ping') return send({ id, result: {} });
    if (method === 'tools/list')
      return send({
        id,
        result: {
          tools: [
            { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
          ],
        },
      });
    if (method === 'tools/call') {
      if (params.name !== tool.name)
        return send({
          id,
          error: { code: -32602, message: `Unknown tool: ${String(params.name)}` },
        });
      try {
        const text = await runInIsolate(tool.code, params.arguments, tool.name);
        return send({ id, result: { content: [{ type: 'text', text }] } });
      } catch (error) {
        const text = `The tool failed: ${error instanceof Error ? error.message : String(error)}`;
        return send({ id, result: { content: [{ type: 'text', text }], isError: true } });
      }
    }
    send({ id, error: { code: -32601, message: `Method not found: ${String(method)}` } });
  };
  const running = new Set<Promise<unknown>>();
  createInterface({ input: process.stdin })
    .on('line', (line) => {
      let request;
      try {
        request = JSON.parse(line);
      } catch {
        return;
      }
      const call = handle(request).finally(() => running.delete(call));
      running.add(call);
    })
    // Calls still running are answered before the process ends.
    .on('close', () => void Promise.allSettled([...running]).then(() => process.exit(0)));
}

if (require.main === module) serve(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Tool);
