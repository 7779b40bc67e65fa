import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ConfiguredServer } from '../config/types';
import { KernelError } from '../domain/errors';
import type { CallClock } from './callClock';
import { asKernelTimeout } from './requestTimeout';
import type { SignInRetry } from './signIn';
import { CappedResult, capResult, ListedTool, LooseCallResultSchema } from './toolResults';
import { callToolAsTask, runsAsTask, TaskHooks } from './toolTasks';

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** MGP fields sent in `params._mgp` (trace_id, stream…). */
  mgp?: Record<string, unknown>;
  /** Learns the JSON-RPC id of the tools/call as it is sent (MGP stream chunks name it, §12.4). */
  onRequestId?: (id: RequestId) => void;
  /** Overrides the server's request timeout. */
  timeoutMs?: number;
  /** Fields kernel services add to the params (MCPL `scope`, `state`, `checkpoint`: §7.7, §8.4). */
  params?: Record<string, unknown>;
  /** Learns the tools/call params as they are sent. */
  onSent?: (params: Record<string, unknown>) => void;
  /** Run the tool as an MCP task (one whose `execution.taskSupport` allows it). */
  task?: TaskHooks & { ttl?: number };
}

/** The parts of a live session a tool call goes out on. */
export interface CallLine {
  client: Client;
  server: ConfiguredServer;
  clock: CallClock;
  signIn: SignInRetry | undefined;
  timeoutMs: number;
  /** Tells `onRequestId` the id of the request that carries this object (its `_mgp` or arguments). */
  awaitId(key: object, onRequestId: (id: RequestId) => void): void;
}

/** The SDK's own timer stays out of the way of the call clock's (setTimeout's largest delay). */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

/**
 * tools/call with the server's timeout (reset by progress; cancelled with notifications/cancelled
 * when it runs out or `signal` aborts) and its result cap. A tool that requires tasks runs as one.
 */
export function sendToolCall(
  line: CallLine,
  tool: ListedTool | string,
  args: Record<string, unknown>,
  options: CallOptions,
): Promise<CappedResult> {
  const { client, server } = line;
  const name = typeof tool === 'string' ? tool : tool.name;
  // Without `_mgp` the call is told by its arguments: a copy of its own, so no other call shares it.
  const sentArgs = !options.mgp && options.onRequestId ? { ...args } : args;
  const params: Record<string, unknown> = options.params
    ? { ...options.params, name, arguments: sentArgs }
    : { name, arguments: sentArgs };
  if (options.mgp) {
    params._mgp = options.mgp;
    if (options.onRequestId) line.awaitId(options.mgp, options.onRequestId);
  } else if (options.onRequestId) line.awaitId(sentArgs, options.onRequestId);
  const requestOptions = {
    timeout: options.timeoutMs ?? line.timeoutMs,
    resetTimeoutOnProgress: true,
    signal: options.signal,
    onprogress: options.onProgress,
  };
  let asTask: boolean;
  try {
    asTask = runsAsTask(client, server.id, tool, options);
  } catch (error) {
    return Promise.reject(error);
  }
  // Promise chains rather than async layers: tools/call is the kernel's hottest path.
  const send = () =>
    asTask
      ? callToolAsTask(client, server.id, params, requestOptions, options).then((result) =>
          LooseCallResultSchema.parse(result),
        )
      : timedCall(line, params, requestOptions.timeout, options);
  options.onSent?.(params);
  const sent = line.signIn ? line.signIn.run(send) : send();
  return sent.then(
    (result) => capResult(result, server.settings.toolResultMaxChars),
    (error: unknown) => {
      // The SDK rejects an aborted request as a timeout (-32001): it was the caller who stopped it.
      if (options.signal?.aborted)
        throw new KernelError('Cancelled', `${server.id}: tools/call ${name} was cancelled`);
      throw asKernelTimeout(server.id, `tools/call ${name}`, error, requestOptions.timeout);
    },
  );
}

/** tools/call on the server's clock (callClock.ts): cancelled when the server's time runs out. */
function timedCall(
  line: CallLine,
  params: Record<string, unknown>,
  timeoutMs: number,
  options: CallOptions,
): Promise<z.infer<typeof LooseCallResultSchema>> {
  const expired = new AbortController();
  const timer = line.clock.start(timeoutMs, () =>
    expired.abort(
      new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }),
    ),
  );
  const { onProgress } = options;
  const onprogress =
    onProgress &&
    ((progress: Parameters<typeof onProgress>[0]) => {
      line.clock.progressed(timer);
      onProgress(progress);
    });
  // The caller's abort reaches the call through the clock's controller: one signal per call, as
  // AbortSignal.any would make a third (and costs more than the rest of this function).
  const caller = options.signal;
  const callerAborted = () => expired.abort(caller?.reason);
  if (caller?.aborted) callerAborted();
  else caller?.addEventListener('abort', callerAborted, { once: true });
  return line.client
    .request({ method: 'tools/call', params: params as { name: string } }, LooseCallResultSchema, {
      timeout: NO_SDK_TIMEOUT,
      signal: expired.signal,
      onprogress,
    })
    .finally(() => {
      timer.stop();
      caller?.removeEventListener('abort', callerAborted);
    });
}
