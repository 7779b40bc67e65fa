/**
 * run_code: runs JavaScript in a fresh `node:vm` context with a time limit and returns what it logged
 * and the value of its last expression. The context has no require, no process, no timers, and cannot
 * compile strings (eval, new Function); values are turned into text inside it, under the time limit,
 * so no getter the code defines runs on the server's own stack. node:vm is still not a security
 * boundary: the tool is `dangerous`, needs `code_execution`, and passes the code safety check first.
 */
import { randomUUID } from 'node:crypto';
import { types } from 'node:util';
import { createContext, Script } from 'node:vm';
import { z } from 'zod';
import { defineTool, security, textResult, toolError } from '../tooling';
import { checkCode, RUN_CODE_SAFETY } from './codeSafety';

const MAX_OUTPUT_CHARS = 16 * 1024;

/** Defines console, a text formatter and an output reader, under names the code cannot guess. */
function bootstrap(keys: { show: string; output: string }): string {
  return `(() => {
  const out = []; let size = 0; let truncated = false;
  const show = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.name + ': ' + v.message;
    try { const json = JSON.stringify(v); return json === undefined ? String(v) : json; } catch { return String(v); }
  };
  const line = (prefix) => (...args) => {
    if (truncated) return;
    const text = prefix + args.map(show).join(' ');
    size += text.length + 1;
    if (size > ${MAX_OUTPUT_CHARS}) { truncated = true; out.push('[output capped]'); } else out.push(text);
  };
  globalThis.console = { log: line(''), info: line(''), debug: line(''), warn: line('[warn] '), error: line('[error] ') };
  Object.defineProperty(globalThis, ${JSON.stringify(keys.show)}, { value: show });
  Object.defineProperty(globalThis, ${JSON.stringify(keys.output)}, { value: () => out.join('\\n') });
})();`;
}

interface SandboxRun {
  output: string;
  result?: string;
  error?: string;
}

/**
 * The time limit's error is made in the context's realm, so it is recognised by its own `code` data
 * property, read without running a getter or a proxy trap the code may have planted.
 */
function isTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || types.isProxy(error)) return false;
  const code = Object.getOwnPropertyDescriptor(error, 'code');
  return code !== undefined && 'value' in code && code.value === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** Runs `code`; throws only for what happens on the server side (a syntax error, the time limit). */
export function runInSandbox(code: string, timeoutMs: number): SandboxRun {
  const keys = {
    show: `__show_${randomUUID().replace(/-/g, '')}`,
    output: `__output_${randomUUID().replace(/-/g, '')}`,
    value: `__value_${randomUUID().replace(/-/g, '')}`,
  };
  // A null-prototype sandbox: `this.constructor` inside leads to the context's own Object, not the server's.
  const context = createContext(Object.create(null), {
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  const options = { timeout: timeoutMs };
  new Script(bootstrap(keys)).runInContext(context, options);
  const script = new Script(code, { filename: 'run_code.js' });
  const asText = (value: unknown): string => {
    (context as Record<string, unknown>)[keys.value] = value;
    const text: unknown = new Script(
      `globalThis[${JSON.stringify(keys.show)}](globalThis[${JSON.stringify(keys.value)}])`,
    ).runInContext(context, options);
    return typeof text === 'string' ? text : '[unavailable]';
  };
  const readOutput = (): string => {
    const text: unknown = new Script(`globalThis[${JSON.stringify(keys.output)}]()`).runInContext(
      context,
      options,
    );
    return typeof text === 'string' ? text : '';
  };
  try {
    const value: unknown = script.runInContext(context, options);
    return { output: readOutput(), result: asText(value) };
  } catch (thrown) {
    if (isTimeout(thrown)) throw thrown;
    return { output: readOutput(), error: asText(thrown) };
  }
}

export const runCode = defineTool({
  name: 'run_code',
  title: 'Run JavaScript',
  description:
    'Runs JavaScript in an isolated context (no modules, no process, no timers) and returns what it logged with console.log and ' +
    'the value of its last expression. Synchronous code only; a time limit applies.',
  input: z.object({
    code: z
      .string()
      .min(1)
      .describe('JavaScript source; the value of the last expression is the result'),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(5000)
      .default(1000)
      .describe('Time limit in milliseconds'),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  security: security('dangerous', {
    permissions_required: ['code_execution'],
    side_effects: ['process'],
    validator: 'code_safety',
    reversible: false,
    confirmation_required: true,
    code_safety: RUN_CODE_SAFETY,
  }),
  run: async ({ code, timeout_ms }) => {
    const rejection = checkCode(code);
    if (rejection)
      return toolError(`Code rejected:\n${rejection.violations.join('\n')}`, { ...rejection });
    let run: SandboxRun;
    try {
      run = runInSandbox(code, timeout_ms);
    } catch (error) {
      const message = isTimeout(error)
        ? `Timed out after ${timeout_ms} ms`
        : error instanceof Error
          ? `${error.name}: ${error.message}`
          : String(error);
      return toolError(message, { error: message, output: '' });
    }
    const text = [
      run.output,
      run.error === undefined ? `=> ${run.result}` : `Uncaught ${run.error}`,
    ]
      .filter(Boolean)
      .join('\n');
    const structured = {
      output: run.output,
      ...(run.error === undefined ? { result: run.result } : { error: run.error }),
    };
    return run.error === undefined ? textResult(text, structured) : toolError(text, structured);
  },
});
