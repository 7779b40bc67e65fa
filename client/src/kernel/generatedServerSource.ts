/**
 * The program a generated tool runs in (see generatedTools.ts): a minimal MCP server over stdio
 * (newline-delimited JSON-RPC) with one tool, whose code is evaluated in a `node:vm` context holding
 * only `args`, `JSON` and `Math`, with a 2 s limit on synchronous work and 10 s on the whole call.
 * `__TOOL__` is replaced by the tool's JSON ({ name, description, inputSchema, code }).
 */
export const GENERATED_SERVER_SOURCE = String.raw`'use strict';
const vm = require('node:vm');
const readline = require('node:readline');
const TOOL = __TOOL__;
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const script = new vm.Script('(async (args) => {\n' + TOOL.code + '\n})(args)', { filename: TOOL.name + '.js' });

async function call(args) {
  const context = vm.createContext({ args: JSON.parse(JSON.stringify(args ?? {})), JSON, Math }, { codeGeneration: { strings: false, wasm: false } });
  const pending = script.runInContext(context, { timeout: 2000 });
  let timer;
  const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('the tool took longer than 10 s')), 10000); });
  try {
    return await Promise.race([pending, limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function handle(request) {
  const { id, method, params } = request;
  if (id === undefined) return;
  if (method === 'initialize') return send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'generated-' + TOOL.name, version: '1.0.0' } } });
  if (method === 'ping') return send({ id, result: {} });
  if (method === 'tools/list') return send({ id, result: { tools: [{ name: TOOL.name, description: TOOL.description, inputSchema: TOOL.inputSchema }] } });
  if (method === 'tools/call') {
    if (params.name !== TOOL.name) return send({ id, error: { code: -32602, message: 'Unknown tool: ' + params.name } });
    try {
      const value = await call(params.arguments);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return send({ id, result: { content: [{ type: 'text', text: String(text) }] } });
    } catch (error) {
      return send({ id, result: { content: [{ type: 'text', text: 'The tool failed: ' + (error && error.message ? error.message : String(error)) }], isError: true } });
    }
  }
  send({ id, error: { code: -32601, message: 'Method not found: ' + method } });
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  void handle(request);
}).on('close', () => process.exit(0));
`;
