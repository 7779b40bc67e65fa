/**
 * `mgp_call` (#mgpCall): a tool of a connected server, called by a VS Code agent (Copilot's agent mode
 * or any other) through the kernel's pipeline as `agent.copilot`: access, the kernel's own approval
 * (shown in VS Code's confirmation, lmConfirmation.ts), validators, audit. Output streams when the
 * server can (MGP §12), shown in the window's progress and the Streaming Output panel; cancelling the
 * chat request sends `mgp/stream/cancel`. The result comes back as text, images and structured content,
 * cut to the caller's token budget.
 */
import * as vscode from 'vscode';
import { errorRejection, KERNEL_SERVER_ID, newTraceId, type ToolCallOutcome } from '../../kernel';
import { confirmationFor } from './lmConfirmation';
import type { LmToolContext } from './lmToolContext';
import { charBudget, textResult, toolResultParts } from './lmToolResult';

export interface CallInput {
  server: string;
  tool: string;
  arguments?: Record<string, unknown>;
}

function schemaOf(context: LmToolContext, input: CallInput): Record<string, unknown> | undefined {
  const tool = context.kernel.manager.find(input.server)?.tools.find((t) => t.name === input.tool);
  return tool?.inputSchema as Record<string, unknown> | undefined;
}

/** Runs the call, streaming when the server can; the window shows its progress. */
function run(
  context: LmToolContext,
  input: CallInput,
  traceId: string,
  token: vscode.CancellationToken,
): Promise<ToolCallOutcome> {
  const request = {
    serverId: input.server,
    toolName: input.tool,
    args: input.arguments ?? {},
    caller: context.session.caller,
    traceId,
  };
  if (input.server === KERNEL_SERVER_ID) {
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    return context.kernel
      .call({ ...request, signal: abort.signal })
      .finally(() => listener.dispose());
  }
  const { kernel } = context;
  const { stream, outcome } = kernel.stream(request);
  const cancel = token.onCancellationRequested(() => void kernel.streams.cancel(stream.id));
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `MGP: ${input.server}.${input.tool}` },
    (progress) =>
      new Promise<void>((resolve) => {
        const onProgress = (e: { id: string; progress: { message?: string; fraction?: number } }) =>
          e.id === stream.id &&
          progress.report({
            message:
              e.progress.message ??
              (e.progress.fraction !== undefined
                ? `${Math.round(e.progress.fraction * 100)}%`
                : undefined),
          });
        kernel.streams.on('progress', onProgress);
        void outcome
          .catch(() => undefined)
          .finally(() => {
            kernel.streams.off('progress', onProgress);
            resolve();
          });
      }),
  );
  return outcome.finally(() => cancel.dispose());
}

export function callTool(context: LmToolContext): vscode.LanguageModelTool<CallInput> {
  return {
    prepareInvocation(options) {
      const { server, tool } = options.input;
      const confirmationMessages = confirmationFor(
        context.kernel,
        server,
        tool,
        options.input.arguments ?? {},
        context.session.caller.agentId,
      );
      if (confirmationMessages)
        context.confirmations.remember(server, tool, options.input.arguments ?? {});
      return {
        invocationMessage: `Calling ${server}.${tool} through MGP Kernel`,
        confirmationMessages,
      };
    },

    async invoke(options, token) {
      const input = options.input;
      if (typeof input?.server !== 'string' || typeof input.tool !== 'string')
        return textResult(
          'mgp_call needs "server" and "tool" (strings); find them with mgp_discover.',
        );
      const traceId = newTraceId();
      // A confirmation the person gave in VS Code answers the kernel's question for this call, once.
      const confirmed = context.confirmations.take(input.server, input.tool, input.arguments ?? {});
      const route = confirmed
        ? context.interaction.routeApproval(traceId, async () => 'once')
        : undefined;
      try {
        const outcome = await run(context, input, traceId, token);
        context.session.tools.used({ serverId: input.server, toolName: input.tool });
        return toolResultParts(
          outcome.result,
          `${input.server}.${input.tool} answered (trace ${traceId}):`,
          charBudget(options),
        );
      } catch (error) {
        return textResult(JSON.stringify(errorRejection(error, schemaOf(context, input))));
      } finally {
        route?.dispose();
      }
    },
  };
}
