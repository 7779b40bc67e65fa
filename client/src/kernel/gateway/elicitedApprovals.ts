/**
 * How `mgp serve` asks for approvals when no editor is attached: the MCP client whose call needs one is
 * asked through elicitation (MCP 2025-11-25, form mode), when it declared that capability: Allow once,
 * Allow for this session, or Deny. A client that cannot be asked gets no approval: the policy decides,
 * and what needs an approval is denied. Everything else the kernel would ask a person (a server's
 * permissions, sampling reviews, registrations) is refused, as in a kernel with nobody to ask.
 */
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type Interaction,
  NOBODY_TO_ASK,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
} from '../host/interaction';
import type { TracedCall } from './gateway';

/** A person decides: as long as they need, within reason. */
const APPROVAL_TIMEOUT_MS = 10 * 60 * 1000;

const DECISIONS: Record<string, ToolApprovalAnswer> = {
  once: 'once',
  session: 'session',
  deny: 'deny',
};

/** The question, with what the person needs to decide; the server's own words marked as such. */
export function approvalMessage(request: ToolApprovalRequest): string {
  const s = request.security;
  const lines = [
    `MGP Kernel: ${request.serverId} wants to run its tool "${request.toolName}" for ${request.agentId}.`,
    `Risk: ${s.risk_level}${s.side_effects.length ? `; side effects: ${s.side_effects.join(', ')}` : ''}${s.reversible === false ? '; not reversible' : ''}.`,
    ...(s.permissions_required.length
      ? [`Permissions: ${s.permissions_required.join(', ')}.`]
      : []),
    `Arguments: ${JSON.stringify(request.args, null, 2)}`,
  ];
  if (request.description)
    lines.push(
      `The tool's description, written by the server (untrusted): ${request.description.split('\n')[0]}`,
    );
  return lines.join('\n');
}

function canElicitForms(call: TracedCall): boolean {
  const elicitation = call.session.server.getClientCapabilities()?.elicitation as
    { form?: object; url?: object } | undefined;
  return Boolean(elicitation && (elicitation.form || !elicitation.url));
}

export function elicitedApprovals(
  callOf: (traceId: string) => TracedCall | undefined,
  onRefused?: (request: ToolApprovalRequest, why: string) => void,
): Interaction {
  return {
    ...NOBODY_TO_ASK,
    async approveToolCall(request, signal) {
      const call = callOf(request.traceId);
      if (!call || !canElicitForms(call)) {
        onRefused?.(request, 'its MCP client cannot be asked (no elicitation capability)');
        return 'deny';
      }
      let result: ElicitResult;
      try {
        result = await call.session.server.elicitInput(
          {
            mode: 'form',
            message: approvalMessage(request),
            requestedSchema: {
              type: 'object',
              properties: {
                decision: {
                  type: 'string',
                  title: 'Decision',
                  enum: ['once', 'session', 'deny'],
                  enumNames: ['Allow once', 'Allow for this session', 'Deny'],
                  default: 'deny',
                },
              },
              required: ['decision'],
            },
          },
          { relatedRequestId: call.requestId, signal, timeout: APPROVAL_TIMEOUT_MS },
        );
      } catch (error) {
        onRefused?.(
          request,
          `asking its MCP client failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        return 'deny';
      }
      if (result.action !== 'accept') return 'deny';
      return DECISIONS[String(result.content?.decision)] ?? 'deny';
    },
  };
}
