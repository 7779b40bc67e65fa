/**
 * Resources and prompts as an agent reads them: the agent's access to the server is checked (MGP §5:
 * a server-wide grant or the server's default policy), the read is made, and it is audited under the
 * agent's identity (custom event types of §6.4: `dev.mgp-kernel.resource_read`,
 * `dev.mgp-kernel.prompt_get`). What the server returns is untrusted text, as a tool's result is.
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { newTraceId } from '../audit/auditEvent';
import { ACCESS_DENIED, KernelError } from '../domain/errors';
import type { AuditSink } from '../audit/auditSink';
import { errorData } from '../mgp/mgpErrors';
import type { Caller } from '../domain/caller';
import { actorOf } from '../domain/caller';

/** What reading needs of the kernel. */
export interface ContentKernel {
  access: {
    query(agentId: string, serverId: string): { permission: 'allow' | 'deny'; source: string };
  };
  manager: {
    get(serverId: string): {
      session(): {
        readResource(uri: string): Promise<ReadResourceResult>;
        getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult>;
      };
    };
  };
  options: { audit: AuditSink };
}

async function audited<T>(
  kernel: ContentKernel,
  caller: Caller,
  serverId: string,
  eventType: string,
  details: Record<string, unknown>,
  read: () => Promise<T>,
): Promise<T> {
  const traceId = newTraceId();
  const record = (result: string, extra: Record<string, unknown> = {}) =>
    kernel.options.audit.record({
      event_type: eventType,
      trace_id: traceId,
      actor: actorOf(caller),
      target: { server_id: serverId },
      result,
      details: { ...details, ...extra },
    });
  const access = kernel.access.query(caller.agentId, serverId);
  if (access.permission !== 'allow') {
    await record('DENIED', { access_source: access.source });
    throw new KernelError(
      'AccessDenied',
      `${caller.agentId} has no access to ${serverId} (${access.source})`,
      ACCESS_DENIED,
      errorData(ACCESS_DENIED, { details: { agent_id: caller.agentId, source: access.source } }),
    );
  }
  try {
    const value = await read();
    await record('SUCCESS');
    return value;
  } catch (error) {
    await record('FAILURE', { error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

export function readResourceAs(
  kernel: ContentKernel,
  caller: Caller,
  serverId: string,
  uri: string,
): Promise<ReadResourceResult> {
  return audited(kernel, caller, serverId, 'dev.mgp-kernel.resource_read', { uri }, () =>
    kernel.manager.get(serverId).session().readResource(uri),
  );
}

export function getPromptAs(
  kernel: ContentKernel,
  caller: Caller,
  serverId: string,
  name: string,
  args: Record<string, string>,
): Promise<GetPromptResult> {
  return audited(kernel, caller, serverId, 'dev.mgp-kernel.prompt_get', { prompt: name }, () =>
    kernel.manager.get(serverId).session().getPrompt(name, args),
  );
}
