/**
 * Messages between the elicitation form (media/src/elicitation) and its host
 * (client/src/vscode/interaction/elicitationPanel.ts): a server asks for information (MCP
 * elicitation, form mode), the person answers in one form.
 */

/**
 * Host → webview: what to ask (the message and the schema come from the server: untrusted), or why an
 * answer was not sent (the requested schema refuses it: a required field empty, a wrong format).
 */
export type ElicitationToWebview =
  | {
      type: 'ask';
      serverId: string;
      message: string;
      /** The requested schema (a flat object of primitive properties, MCP elicitation). */
      schema: Record<string, unknown>;
    }
  | { type: 'refused'; errors: { pointer: string; message: string }[] };

/** Webview → host. */
export type ElicitationFromWebview =
  | { type: 'ready' }
  | { type: 'accept'; content: Record<string, unknown> }
  | { type: 'decline' }
  | { type: 'cancel' };

export function isElicitationFromWebview(value: unknown): value is ElicitationFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
    case 'decline':
    case 'cancel':
      return true;
    case 'accept':
      return (
        typeof message.content === 'object' &&
        message.content !== null &&
        !Array.isArray(message.content)
      );
    default:
      return false;
  }
}
