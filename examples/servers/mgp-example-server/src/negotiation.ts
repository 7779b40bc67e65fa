/**
 * The initialize handshake with MGP capability negotiation (MGP §2). The SDK's own initialize handler
 * parses `capabilities` with a schema that drops `mgp`, so this one replaces it: it reads the request
 * loosely and answers like the SDK does, plus `capabilities.mgp` when the client asked for it.
 * (The SDK's getClientCapabilities() stays empty as a result; this server sends the client no
 * requests that would need it.)
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerOptions } from './options';
import type { Session } from './session';
import {
  EVENT_CHANNELS,
  LooseInitializeRequestSchema,
  OUR_EXTENSIONS,
  SERVER_ID,
  SERVER_INFO,
} from './wire';

/** The server's `capabilities.mgp` (MGP §2.3). */
export function serverMgpCapability(
  session: Session,
  options: ServerOptions,
  permissionsRequired: string[],
) {
  return {
    version: options.mgpVersion,
    // Unasked (--mgp-unasked) there is nothing to intersect with: all of ours.
    extensions: session.isMgp ? session.extensions : [...OUR_EXTENSIONS],
    permissions_required: permissionsRequired,
    server_id: SERVER_ID,
    trust_level: 'standard',
    event_channels: EVENT_CHANNELS,
  };
}

export interface Offer {
  /** The MCP capabilities the Server was created with (the SDK keeps its own copy private). */
  capabilities: Record<string, unknown>;
  permissionsRequired: string[];
}

export function installNegotiation(
  server: Server,
  session: Session,
  options: ServerOptions,
  offer: Offer,
): void {
  server.setRequestHandler(LooseInitializeRequestSchema, (request) => {
    const { protocolVersion: requested, capabilities } = request.params;
    session.negotiate(capabilities?.mgp);
    // MGP §2.4 rule 3: no `mgp` in the answer unless the client sent one (--mgp-unasked breaks this on purpose).
    const answerMgp = session.isMgp || options.mgpUnasked;
    const mgp = answerMgp
      ? serverMgpCapability(session, options, offer.permissionsRequired)
      : undefined;
    console.error(
      session.isMgp
        ? `mgp-example-server: MGP ${session.clientVersion ?? '?'} asked; active extensions: ${session.extensions.join(', ') || '(none)'}`
        : `mgp-example-server: plain MCP client${options.mgpUnasked ? ' (answering with mgp anyway: --mgp-unasked)' : ''}`,
    );
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
        ? requested
        : LATEST_PROTOCOL_VERSION,
      capabilities: { ...offer.capabilities, ...(mgp && { mgp }) },
      serverInfo: SERVER_INFO,
    };
  });
}
