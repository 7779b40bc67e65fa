/**
 * A real kernel for interop tests: a config file on disk, a durable audit log in a temporary folder,
 * real servers as child processes. The operator is a script of answers (the one part a test cannot have
 * for real: a person), and it records every question it was asked.
 */
import type { Authorizations } from '../../../client/src/kernel/auth/authorizations';
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AuditRecord } from '../../../client/src/kernel/audit/auditEvent';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { Redactor } from '../../../client/src/kernel/audit/redact';
import { AuditTrail } from '../../../client/src/kernel/audit/auditTrail';
import type { ReportLimits } from '../../../client/src/kernel/audit/serverReports';
import { mergeConfigFiles, parseConfigText } from '../../../client/src/kernel/config/load';
import type { ConfiguredServer, KernelConfig } from '../../../client/src/kernel/config/types';
import {
  Interaction,
  NOBODY_TO_ASK,
  ToolApprovalAnswer,
  ToolApprovalRequest,
} from '../../../client/src/kernel/host/interaction';
import { Kernel } from '../../../client/src/kernel/kernel';
import { withAnswerText } from '../../../client/src/kernel/host/samplingText';
import { EDITOR_OPERATOR } from '../../../client/src/kernel/domain/caller';
import { repoRoot } from '../../repoRoot';

const root = repoRoot();
export const node = JSON.stringify(process.execPath);
export const exampleServer = JSON.stringify(
  join(root, 'examples/servers/dist/mgp-example-server.js'),
);
export const mcplExampleServer = JSON.stringify(
  join(root, 'examples/servers/dist/mcpl-example-server.js'),
);
export const taskExampleServer = JSON.stringify(
  join(root, 'examples/servers/dist/task-example-server.js'),
);
export const everythingServer = JSON.stringify(
  join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
);
export const fixtureServer = (name: string) =>
  JSON.stringify(join(root, 'test/fixtures/servers', name));

/** The operator's scripted answers, and a record of what was asked. */
export class ScriptedOperator {
  readonly asked: { kind: string; detail: unknown }[] = [];
  toolAnswers: ToolApprovalAnswer[] = [];
  permissionAnswer: 'approved' | 'denied' = 'approved';
  callbackAnswers: (string | undefined)[] = [];
  /** `wait`: hold the question until the server withdraws it (then recorded as `withdrawn`). */
  samplingAction: 'approve' | 'reject' | 'wait' = 'approve';
  /** Hold every elicitation until the server withdraws it. */
  elicitWait = false;
  /** What the operator does with the model's answer: send it, send this text instead, or decline. */
  completionAction: 'send' | 'reject' | { edit: string } = 'send';
  elicitContent: Record<string, unknown> | undefined;
  registrationAnswer = true;
  /** MCPL §7.6 step 3 and §11 `ask`: the answers to scope and inference questions, in order. */
  scopeAnswers: boolean[] = [];
  /** While set, a scope question waits for it before its answer (a person slow to answer). */
  scopeHold: Promise<void> | undefined;
  inferenceAnswers: boolean[] = [];
  /** What the operator does before answering a tool-call approval (take their time, say). */
  thinking: () => Promise<void> = async () => undefined;
  /** What the operator does before answering a sampling review, an elicitation form or a callback. */
  reviewing: () => Promise<void> = async () => undefined;

  interaction(): Interaction {
    return {
      ...NOBODY_TO_ASK,
      approveToolCall: async (request: ToolApprovalRequest) => {
        this.asked.push({ kind: 'tool', detail: request });
        await this.thinking();
        return this.toolAnswers.shift() ?? 'deny';
      },
      approvePermissions: async (request) => {
        this.asked.push({ kind: 'permissions', detail: request });
        return {
          decisions: Object.fromEntries(
            request.permissions.map((p) => [p.name, this.permissionAnswer]),
          ),
        };
      },
      reviewSampling: async (serverId, params, signal) => {
        this.asked.push({ kind: 'sampling', detail: { serverId, params } });
        await this.reviewing();
        if (this.samplingAction === 'wait') {
          await this.withdrawal(signal);
          return { action: 'reject', reason: 'withdrawn' };
        }
        return this.samplingAction === 'approve'
          ? { action: 'approve', params }
          : { action: 'reject', reason: 'test says no' };
      },
      reviewCompletion: async (serverId, result) => {
        this.asked.push({ kind: 'completion', detail: { serverId, result } });
        const action = this.completionAction;
        if (action === 'reject') return { action: 'reject', reason: 'test declines the answer' };
        return {
          action: 'send',
          result: action === 'send' ? result : withAnswerText(result, action.edit),
        };
      },
      elicit: async (serverId, params, signal) => {
        this.asked.push({ kind: 'elicit', detail: { serverId, params } });
        await this.reviewing();
        if (this.elicitWait) {
          await this.withdrawal(signal);
          return { action: 'cancel' };
        }
        return this.elicitContent
          ? { action: 'accept', content: this.elicitContent as never }
          : { action: 'decline' };
      },
      answerCallback: async (question) => {
        this.asked.push({ kind: `callback:${question.type}`, detail: question });
        await this.reviewing();
        const answer = this.callbackAnswers.shift();
        if (answer === '<wait>') {
          await new Promise((resolve) =>
            question.expired.addEventListener('abort', resolve, { once: true }),
          );
          return undefined;
        }
        return answer;
      },
      approveRegistration: async (request) => {
        this.asked.push({ kind: 'registration', detail: request });
        return this.registrationAnswer;
      },
      approveScope: async (question) => {
        this.asked.push({ kind: 'scope', detail: question });
        await this.scopeHold;
        return this.scopeAnswers.shift() ?? false;
      },
      approveInference: async (question) => {
        this.asked.push({ kind: 'inference', detail: question });
        return this.inferenceAnswers.shift() ?? false;
      },
    };
  }

  /** Resolves when the server withdraws the question (MCP notifications/cancelled). */
  private async withdrawal(signal: AbortSignal): Promise<void> {
    if (!signal.aborted)
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    this.asked.push({ kind: 'withdrawn', detail: undefined });
  }

  count(kind: string): number {
    return this.asked.filter((a) => a.kind === kind).length;
  }
}

export interface TestKernel {
  kernel: Kernel;
  trail: AuditTrail;
  operator: ScriptedOperator;
  dir: string;
  stateDir: string;
  config: KernelConfig;
  records(): Promise<AuditRecord[]>;
  ofType(type: string): Promise<AuditRecord[]>;
  /** Stops the kernel and closes the log; the folder stays for a restart. */
  stop(): Promise<void>;
  /** stop() and delete the folder. */
  dispose(): Promise<void>;
}

/**
 * `toml` as the user's own config file; `workspaceToml`, when given, as a workspace folder's
 * mgp.toml, nearer than the user's (as the extension finds them).
 */
export function configOf(dir: string, toml: string, workspaceToml?: string): KernelConfig {
  const read = (path: string, text: string, origin: 'user' | 'workspace') => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    const file = parseConfigText(text, { path, format: 'mgp', origin });
    assert.deepEqual(
      file.problems.filter((p) => p.severity === 'error').map((p) => `${p.line}: ${p.message}`),
      [],
    );
    return file;
  };
  const user = read(join(dir, 'mgp.toml'), toml, 'user');
  if (workspaceToml === undefined) return mergeConfigFiles([user]);
  return mergeConfigFiles([
    read(join(dir, 'workspace', 'mgp.toml'), workspaceToml, 'workspace'),
    user,
  ]);
}

export interface StartOptions {
  dir?: string;
  operator?: ScriptedOperator;
  hostEnv?: Record<string, string | undefined>;
  secrets?: Record<string, string>;
  configure?(kernel: Kernel): void;
  trace?(serverId: string): boolean;
  /** Whether a server may start (the editor's Workspace Trust and launch approvals). */
  mayStart?(server: ConfiguredServer): true | string;
  authorization?: Authorizations;
  /** A workspace folder's mgp.toml beside the user's config (configOf). */
  workspaceToml?: string;
  /** The roots the kernel offers servers (default: the test folder); read at each roots/list. */
  roots?(dir: string): { uri: string; name?: string }[];
  /** The workspace folder (default: the test folder): what sandboxed servers may write. */
  workingFolder?(dir: string): string;
  /** How much each server may report into the trail per window (serverReports.ts). */
  reportLimits?: ReportLimits;
}

export async function startKernel(toml: string, options: StartOptions = {}): Promise<TestKernel> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'mgp-kernel-'));
  const stateDir = join(dir, '.state');
  const operator = options.operator ?? new ScriptedOperator();
  const redactor = new Redactor();
  const trail = new AuditTrail(
    await AuditLog.open({ directory: join(stateDir, 'audit'), redactor }),
    { reportLimits: options.reportLimits },
  );
  const kernel = new Kernel({
    hostEnv: options.hostEnv ?? { PATH: process.env.PATH },
    secrets: { get: async (name) => options.secrets?.[name] },
    interaction: operator.interaction(),
    audit: trail,
    stateDir,
    workingFolder: options.workingFolder?.(dir) ?? dir,
    operator: EDITOR_OPERATOR,
    roots: () => options.roots?.(dir) ?? [{ uri: `file://${dir}`, name: 'test workspace' }],
    onSecrets: (values) => values.forEach((v) => redactor.addSecret(v)),
    trace: options.trace,
    mayStart: options.mayStart,
    authorization: options.authorization,
  });
  options.configure?.(kernel);
  const config = configOf(dir, toml, options.workspaceToml);
  await kernel.apply(config);
  const records = async () => {
    await trail.flush();
    const all: AuditRecord[] = [];
    for await (const record of trail.log.records()) all.push(record);
    return all;
  };
  const stop = async () => {
    await kernel.dispose();
    await trail.close();
  };
  return {
    kernel,
    trail,
    operator,
    dir,
    stateDir,
    config,
    records,
    ofType: async (type) => (await records()).filter((r) => r.event_type === type),
    stop,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ScriptedModelRequest {
  model: string;
  messages: {
    role: string;
    content: string | null;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: {
    type: 'function';
    function: { name: string; description: string; parameters: unknown };
  }[];
  stream?: boolean;
}

export interface ScriptedModel {
  url: string;
  requests: ScriptedModelRequest[];
  /** Streams the client hung up on. */
  readonly aborted: number;
  close(): Promise<void>;
}

/** One turn of a scripted agent model: text and/or tool calls (arguments as an object, or raw text). */
export interface ScriptedTurn {
  content?: string;
  tool_calls?: { name: string; arguments?: Record<string, unknown> | string; id?: string }[];
  repeat?: boolean;
  delayMs?: number;
  chunkDelayMs?: number;
  error?: string;
}

/** The scripted model of test/fixtures/models: the OpenAI chat completions API on loopback. */
export function startScriptedModel(options: {
  rules?: { match: string; reply: string }[];
  turns?: (ScriptedTurn | ((request: ScriptedModelRequest, index: number) => ScriptedTurn))[];
  apiKey?: string;
  delayMs?: number;
}): Promise<ScriptedModel> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fixture = require(join(root, 'test/fixtures/models/scriptedModel.js')) as {
    startScriptedModel(o: typeof options): Promise<ScriptedModel>;
  };
  return fixture.startScriptedModel(options);
}

export function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

export { eventually, eventuallyValue } from '../../support/patience';
