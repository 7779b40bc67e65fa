/**
 * The managed policy over a merged config: the servers it denies are marked blocked (they never
 * start, whoever asks), and every setting below it that is looser than its floor is raised to the
 * floor, with a warning naming the file and the key that was ignored, the way a workspace file's
 * loosenings are treated.
 */
import { policyBlock } from './managedPolicy';
import { applySandbox, DEFAULT_SANDBOX, tightenSandbox } from './sandboxPolicy';
import type {
  ApprovalPolicy,
  ConfigProblem,
  ConfiguredServer,
  KernelConfig,
  KernelSettings,
  ManagedPolicy,
} from './types';

const APPROVAL_ORDER: ApprovalPolicy[] = ['auto_approve', 'interactive', 'config_only', 'deny_all'];
const looser = (policy: ApprovalPolicy, floor: ApprovalPolicy) =>
  APPROVAL_ORDER.indexOf(policy) < APPROVAL_ORDER.indexOf(floor);

function ignoredBy(
  policy: ManagedPolicy,
  file: string,
  line: number,
  key: string,
  why: string,
): ConfigProblem {
  return {
    file,
    line,
    column: 1,
    key,
    severity: 'warning',
    message: `${key} is ignored: ${why} (the managed policy ${policy.path}).`,
  };
}

/** `[kernel]` keys of each file that the policy's floors overrule, named where they are written. */
function kernelWarnings(config: KernelConfig, policy: ManagedPolicy): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const file of config.files) {
    const kernel = file.kernel;
    if (!kernel) continue;
    const line = (key: string) => file.kernelLines?.[key] ?? 1;
    const path = file.location.path;
    if (
      policy.approvalFloor &&
      kernel.approvalPolicy &&
      looser(kernel.approvalPolicy, policy.approvalFloor)
    )
      problems.push(
        ignoredBy(
          policy,
          path,
          line('approval_policy'),
          'kernel.approval_policy',
          `the approval policy may be no looser than ${policy.approvalFloor}`,
        ),
      );
    if (policy.moderateToolsRequireApproval && kernel.moderateToolsRequireApproval === false)
      problems.push(
        ignoredBy(
          policy,
          path,
          line('moderate_tools_require_approval'),
          'kernel.moderate_tools_require_approval',
          'moderate tools must wait for approval',
        ),
      );
    if (policy.postgres?.url && kernel.audit?.postgres)
      problems.push(
        ignoredBy(
          policy,
          path,
          line('audit.postgres'),
          'kernel.audit.postgres',
          'audit records go to the database the policy names',
        ),
      );
  }
  return problems;
}

function flooredKernel(kernel: KernelSettings, policy: ManagedPolicy): KernelSettings {
  const next: KernelSettings = { ...kernel };
  if (policy.approvalFloor && looser(kernel.approvalPolicy, policy.approvalFloor))
    next.approvalPolicy = policy.approvalFloor;
  if (policy.moderateToolsRequireApproval) next.moderateToolsRequireApproval = true;
  if (policy.sandbox) {
    const tightened = tightenSandbox(applySandbox(DEFAULT_SANDBOX, kernel.sandbox), policy.sandbox);
    next.sandbox = { ...kernel.sandbox, ...tightened.table };
  }
  if (policy.postgres?.url)
    next.audit = { ...kernel.audit, postgres: { url: policy.postgres.url } };
  if (policy.models) next.allowedModels = policy.models;
  return next;
}

/** One server under the policy: blocked, or its approval policy and sandbox raised to the floors. */
function flooredServer(
  server: ConfiguredServer,
  policy: ManagedPolicy,
  auditShipped: boolean,
  problems: ConfigProblem[],
): ConfiguredServer {
  const blocked = policyBlock(policy, server, auditShipped);
  if (blocked) return { ...server, blockedByPolicy: blocked };
  let next = server;
  const own = server.policy.approvalPolicy;
  if (policy.approvalFloor && own && looser(own, policy.approvalFloor)) {
    next = { ...next, policy: { ...next.policy, approvalPolicy: policy.approvalFloor } };
    problems.push(
      ignoredBy(
        policy,
        server.source.file,
        server.source.line,
        'servers.approval_policy',
        `"${server.id}" may be approved no more loosely than ${policy.approvalFloor}`,
      ),
    );
  }
  if (policy.sandbox) {
    const before = server.settings.sandbox;
    const sandbox = applySandbox(before, tightenSandbox(before, policy.sandbox).table);
    if (JSON.stringify(sandbox) !== JSON.stringify(before)) {
      next = { ...next, settings: { ...next.settings, sandbox } };
      if (server.policy.sandbox && server.transport === 'stdio')
        problems.push(
          ignoredBy(
            policy,
            server.source.file,
            server.source.line,
            'servers.sandbox',
            `the sandbox of "${server.id}" may confine no less than the policy's`,
          ),
        );
    }
  }
  return next;
}

/** The config under the policy; the config itself when there is none. */
export function applyManagedPolicy(
  config: KernelConfig,
  policy: ManagedPolicy | undefined,
): KernelConfig {
  if (!policy) return config;
  const problems = [...policy.problems, ...config.problems];
  if (!policy.broken) problems.push(...kernelWarnings(config, policy));
  const kernel = policy.broken ? config.kernel : flooredKernel(config.kernel, policy);
  const shipped = kernel.audit.postgres !== undefined;
  const servers = config.servers.map((server) => flooredServer(server, policy, shipped, problems));
  return { ...config, servers, kernel, problems, managed: policy };
}
