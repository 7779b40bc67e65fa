/**
 * Reading the managed policy (policy.toml): the machine-wide file an organisation sets, checked by
 * the same checker as every config (the language server and `mgp check` show the same problems). A
 * policy that cannot be read, or has errors, fails closed: no server starts until it is fixed.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { managedPolicyPath } from '@shared/configFiles';
import { checkParsed } from '@shared/configCheck/checkDocument';
import { parseTomlDocument } from '@shared/configCheck/parse';
import { locate, PointerMap, pointerOf } from '@shared/configCheck/pointers';
import { defaultEnvironment } from '@shared/configCheck/semantic/environment';
import { matchesServer } from './policyPatterns';
import { sandboxTable } from './sandboxPolicy';
import type {
  ApprovalPolicy,
  ConfigProblem,
  ConfiguredServer,
  ManagedPolicy,
  PolicyBlock,
} from './types';

type Table = Record<string, unknown>;

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;

const POLICY_KEYS = [
  'servers.allow',
  'servers.deny',
  'kernel.approval_policy',
  'kernel.moderate_tools_require_approval',
  'kernel.sandbox',
  'kernel.audit.postgres.url',
  'kernel.audit.postgres.required',
  'models.allow',
];

function keyLines(pointers: PointerMap): Record<string, number> {
  const lines: Record<string, number> = {};
  for (const key of POLICY_KEYS) {
    const at = locate(pointers, pointerOf(key.split('.')), ['key', 'header']);
    if (at) lines[key] = at.start.line + 1;
  }
  return lines;
}

/** The policy in `text`, read from `path`; `broken` when it has errors. */
export function parseManagedPolicy(
  text: string,
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ManagedPolicy {
  const parsed = parseTomlDocument(text);
  const { diagnostics, pointers } = checkParsed('policy', parsed, text, {
    path,
    environment: defaultEnvironment(dirname(path), env),
  });
  const problems: ConfigProblem[] = diagnostics.map((d) => ({
    file: path,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: d.severity,
    message: d.message,
  }));
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (!parsed.ok || !pointers || errors.length > 0)
    return {
      path,
      deny: [],
      lines: {},
      problems,
      broken: `the managed policy ${path} has errors (${errors[0]?.message ?? 'it is not valid TOML'})`,
    };
  const value = parsed.value;
  const servers = isTable(value.servers) ? value.servers : {};
  const kernel = isTable(value.kernel) ? value.kernel : {};
  const audit =
    isTable(kernel.audit) && isTable(kernel.audit.postgres) ? kernel.audit.postgres : {};
  const models = isTable(value.models) ? value.models : {};
  return {
    path,
    allow: strings(servers.allow),
    deny: strings(servers.deny) ?? [],
    approvalFloor:
      typeof kernel.approval_policy === 'string'
        ? (kernel.approval_policy as ApprovalPolicy)
        : undefined,
    moderateToolsRequireApproval:
      kernel.moderate_tools_require_approval === true ? true : undefined,
    sandbox: sandboxTable(kernel.sandbox),
    postgres:
      typeof audit.url === 'string' || audit.required === true
        ? {
            url: typeof audit.url === 'string' ? audit.url : undefined,
            required: audit.required === true,
          }
        : undefined,
    models: strings(models.allow),
    lines: keyLines(pointers),
    problems,
  };
}

export interface PolicyInputs {
  env: Readonly<Record<string, string | undefined>>;
  /** `process.platform` unless given. */
  platform?: string;
}

/** The machine's managed policy; undefined when there is none (no file at its place). */
export async function readManagedPolicy(inputs: PolicyInputs): Promise<ManagedPolicy | undefined> {
  const path = managedPolicyPath(inputs.platform ?? process.platform, inputs.env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      path,
      deny: [],
      lines: {},
      broken: `the managed policy ${path} cannot be read (${reason})`,
      problems: [{ file: path, line: 1, column: 1, severity: 'error', message: reason }],
    };
  }
  return parseManagedPolicy(text, path, inputs.env);
}

/** Why the policy keeps `server` from starting, or undefined when it may start. A deny wins. */
export function policyBlock(
  policy: ManagedPolicy | undefined,
  server: Pick<ConfiguredServer, 'id' | 'command' | 'args' | 'url'>,
  auditShipped = true,
): PolicyBlock | undefined {
  if (!policy) return undefined;
  const at = (key: string) => ({ file: policy.path, line: policy.lines[key] ?? 1, key });
  if (policy.broken) return { reason: policy.broken, file: policy.path, line: 1, key: '' };
  const denied = policy.deny.find((pattern) => matchesServer(pattern, server));
  if (denied !== undefined)
    return {
      reason: `denied by the managed policy (servers.deny "${denied}")`,
      ...at('servers.deny'),
    };
  if (policy.allow && !policy.allow.some((pattern) => matchesServer(pattern, server)))
    return {
      reason: 'not in servers.allow of the managed policy',
      ...at('servers.allow'),
    };
  if (policy.postgres?.required && !auditShipped)
    return {
      reason:
        'the managed policy requires audit shipping, and no [kernel.audit.postgres] url is configured',
      ...at('kernel.audit.postgres.required'),
    };
  return undefined;
}
