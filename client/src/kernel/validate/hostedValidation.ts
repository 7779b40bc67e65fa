/**
 * Validating a server the kernel hosts (the editor's *MGP: Validate Server*): its definition as the
 * kernel has it now, with the kernel's secrets and sign-in, and a stdio server in the sandbox its
 * policy asks for, as the kernel would start it. A server the managed policy blocks, or the front
 * end's start gate holds back (trust, a yes to a workspace server), is not run.
 */
import { KernelError } from '../domain/errors';
import type { Kernel } from '../kernel';
import { publicAddress } from '../net/publicAddress';
import type { ServerLaunchDeps } from '../sandbox/serverLaunch';
import { writableRoots } from '../sandbox/writableRoots';
import type { CheckResult, ValidationReport } from './types';
import { validateServer } from './validateServer';

/** The sandbox a config's stdio server runs in when the kernel starts it, for these folders. */
export function kernelSandbox(
  hostEnv: Readonly<Record<string, string | undefined>>,
  workspaceFolders: readonly string[],
): ServerLaunchDeps {
  return { hostEnv, workspaceFolders, addressGuard: publicAddress };
}

export interface HostedValidationOptions {
  allowDangerous?: boolean;
  onResult?(result: CheckResult): void;
}

export async function validateHostedServer(
  kernel: Kernel,
  serverId: string,
  options: HostedValidationOptions = {},
): Promise<ValidationReport> {
  const server = kernel.manager.find(serverId)?.config;
  if (!server) throw new KernelError('UnknownServer', `no server "${serverId}" is configured`);
  if (server.blockedByPolicy !== undefined)
    throw new KernelError(
      'StartRefused',
      `server "${serverId}" is blocked by policy: ${server.blockedByPolicy.reason}`,
    );
  const gate = kernel.options.mayStart?.(server) ?? true;
  if (gate !== true)
    throw new KernelError('StartRefused', `server "${serverId}" may not start: ${gate}`);
  if (server.a2a)
    throw new KernelError('Unsupported', `"${serverId}" is an A2A agent, not an MCP server`);
  const { hostEnv, secrets, authorization } = kernel.options;
  return validateServer({
    target: { kind: 'hosted', server },
    hostEnv,
    secrets,
    authorization,
    sandbox: kernelSandbox(hostEnv, writableRoots(kernel.options)),
    allowDangerous: options.allowDangerous,
    onResult: options.onResult,
  });
}
