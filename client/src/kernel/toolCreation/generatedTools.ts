/**
 * Autonomous tool creation (MGP §16.6), wired only when `[kernel] tool_creation = true`. The guardrails
 * are the discovery module's (ToolCreator); this supplies the parts: the code comes from the configured
 * model, is checked by the code safety validator at the strict level with no imports allowed, is shown
 * to the operator (registration prompt, with the code's hash) under `interactive`, and runs as an
 * ephemeral, sandboxed MCP server of its own (MGP §15.4): a separate node process with an empty
 * environment (generatedServer.ts), the code run in QuickJS compiled to WebAssembly, an engine that
 * holds no object of the host, with memory, stack and time limits. The server is removed when the
 * session ends.
 */
import { DEFAULT_SANDBOX } from '../config/sandboxPolicy';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEventInput } from '../audit/auditEvent';
import type { ConfiguredServer, KernelSettings } from '../config/types';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_RESTART,
  DEFAULT_TOOL_RESULT_MAX_CHARS,
} from '../config/settings';
import type { EphemeralTool, GeneratedTool, ToolCreationOptions } from '../discovery';
import type { CreationRequest } from '../discovery/toolCreation';
import type { AuditSink } from '../audit/auditSink';
import type { Interaction } from '../host/interaction';
import type { ModelRouter } from '../llm/modelRouter';
import { runValidators } from '../security/validators';
import type { ServerManager } from '../lifecycle/serverManager';
import { generatedFunction } from './generatedSource';

export interface GeneratedToolsDeps {
  manager: ServerManager;
  models: ModelRouter;
  interaction: Interaction;
  audit: AuditSink;
  settings(): KernelSettings;
  stateDir: string;
  log(message: string): void;
}

const NAME = /^[a-z][a-z0-9_]{1,63}$/;

/**
 * The generated tools' server program: `dist/generatedServer.js` next to the bundles (esbuild.mjs
 * builds it), or the transpiled generatedServer.js next to this module in the unbundled test build.
 */
export const GENERATED_SERVER_SCRIPT = 'generatedServer.js';

const INSTRUCTIONS = `You write one tool for an MCP server, in JavaScript. Answer with JSON only, no prose:
{"name": "snake_case_name", "description": "what it does", "inputSchema": {JSON Schema of the arguments, type object}, "code": "..."}
"code" is the body of an async function of one parameter, args, that returns the result (a string or a JSON value).
It runs in a bare JavaScript engine with no require, no import, no process, no timers, no file or network access: pure computation on args, with JSON, Math and the language's built-ins.`;

function parseGenerated(text: string): GeneratedTool {
  const json = text
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```\s*$/, '')
    .trim();
  const value = JSON.parse(
    json.slice(json.indexOf('{'), json.lastIndexOf('}') + 1),
  ) as Partial<GeneratedTool>;
  if (typeof value.name !== 'string' || !NAME.test(value.name))
    throw new Error(`the model's tool name ${JSON.stringify(value.name)} is not snake_case`);
  if (typeof value.code !== 'string' || !value.code.trim())
    throw new Error('the model gave no code');
  const inputSchema =
    typeof value.inputSchema === 'object' && value.inputSchema !== null
      ? value.inputSchema
      : { type: 'object' };
  return {
    name: value.name,
    description: typeof value.description === 'string' ? value.description : value.name,
    inputSchema,
    code: value.code,
    language: 'javascript',
  };
}

export function generatedServerId(name: string): string {
  return `generated.${name}`;
}

export class GeneratedTools {
  private readonly folder: string;

  constructor(private readonly deps: GeneratedToolsDeps) {
    this.folder = join(deps.stateDir, 'generated');
  }

  /** The creation options for the discovery tools: enabled only when the config says so. */
  options(agentId: string): ToolCreationOptions {
    const settings = this.deps.settings();
    if (!settings.toolCreation) return { enabled: false };
    return {
      enabled: true,
      approvalPolicy: settings.approvalPolicy === 'auto_approve' ? 'auto_approve' : 'interactive',
      agentId,
      generate: (request) => this.generate(request),
      validate: (code) => this.validate(code),
      approve: (tool) => this.approve(tool, agentId),
      register: (tool) => void this.register(tool),
      unregister: (name) => void this.unregister(name),
      audit: (event: AuditEventInput) => void this.deps.audit.record(event),
      onSettled: (outcome) =>
        this.deps.log(
          `tool creation ${outcome.creation_id}: ${outcome.status}${'reason' in outcome ? ` (${outcome.reason})` : ''}`,
        ),
    };
  }

  private async generate(request: CreationRequest): Promise<GeneratedTool> {
    const want = [
      request.context,
      ...request.capabilities.map((c) => `capability: ${c}`),
      ...request.input_types.map((t) => `input: ${t}`),
      ...request.output_types.map((t) => `output: ${t}`),
    ].join('\n');
    const answer = await this.deps.models.complete(
      { systemPrompt: INSTRUCTIONS, messages: [{ role: 'user', content: want }], maxTokens: 2000 },
      AbortSignal.timeout(120_000),
    );
    return parseGenerated(answer.content);
  }

  /** §16.6 guardrail 4: the code safety framework at the strict level, with no import allowed. */
  private async validate(code: string): Promise<{ passed: boolean; violations?: string[] }> {
    const outcome = await runValidators(['code_safety'], {
      toolName: 'generated_tool',
      args: { code: `${generatedFunction(code)};` },
      security: {
        risk_level: 'dangerous',
        permissions_required: ['code_execution'],
        side_effects: [],
        code_safety: {
          level: 'strict',
          language: 'javascript',
          allowed_imports: [],
          max_code_size_bytes: 20_000,
        },
      },
    });
    return {
      passed: outcome.ok,
      violations: outcome.codeRejection?.violations ?? outcome.violations.map((v) => v.message),
    };
  }

  private approve(
    tool: GeneratedTool & { code_sha256: string },
    agentId: string,
  ): Promise<boolean> {
    return this.deps.interaction.approveRegistration({
      id: generatedServerId(tool.name),
      command: `generated tool (sha256 ${tool.code_sha256.slice(0, 16)}…)`,
      args: [],
      transport: 'stdio',
      trustLevel: 'experimental',
      createdBy: agentId,
      justification: `${tool.description}\n\n${tool.code.slice(0, 1500)}`,
    });
  }

  private async register(tool: EphemeralTool): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = join(this.folder, `${tool.code_sha256}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        code: tool.code,
      }),
      { mode: 0o600 },
    );
    const server: ConfiguredServer = {
      id: generatedServerId(tool.name),
      transport: 'stdio',
      command: process.execPath,
      args: [join(__dirname, GENERATED_SERVER_SCRIPT), file],
      settings: {
        // Nothing of the kernel's environment; in the editor, the one variable that makes its
        // executable run as plain Node.
        env: { ELECTRON_RUN_AS_NODE: '1' },
        passEnv: [],
        headers: {},
        cwd: this.folder,
        framing: 'newline',
        requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
        connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
        toolResultMaxChars: DEFAULT_TOOL_RESULT_MAX_CHARS,
        restart: { ...DEFAULT_RESTART, policy: 'never' },
        // QuickJS is its isolate; where the platform has a sandbox, it runs in one too.
        sandbox: { ...DEFAULT_SANDBOX, network: 'none' },
      },
      policy: {
        toolOverrides: { [tool.name]: { risk_level: 'moderate', validator: 'sandbox' } },
        approvedTools: [],
        accessGrants: [],
        negotiate: false,
        permissions: [],
        trustLevel: 'sandboxed',
        pinnedTools: [],
      },
      source: { file: `generated (creation ${tool.creation_id})`, line: 0, format: 'mgp' },
      origin: 'runtime',
    };
    await this.deps.manager
      .register(server)
      .catch((error: unknown) =>
        this.deps.log(`starting generated tool ${tool.name} failed: ${String(error)}`),
      );
  }

  private async unregister(name: string): Promise<void> {
    await this.deps.manager
      .deregister(generatedServerId(name), 'operator_request')
      .catch(() => undefined);
  }

  /** Removes the generated servers' files (at kernel shutdown, after their servers stopped). */
  cleanUp(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
