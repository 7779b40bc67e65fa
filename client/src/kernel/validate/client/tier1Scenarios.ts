/**
 * Client scenarios of MCP's lifecycle and MGP Tier 1 (§17.5): the client offers `mgp` at
 * initialize and goes on when the server answers with it (§2); it reads the security metadata of
 * the tools (§4) and does not run a dangerous one without an approval.
 */
import { MGP_VERSION } from '../../mgp/negotiation';
import { fail, missing, pass, shown } from '../context';
import { allCalls, exchangeOf, offersMgp, OBJECT_SCHEMA, safeTool, text } from './observe';
import type { ClientCheck, ClientScenario } from './scenario';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

const initialize: ClientCheck = {
  id: 'mcp.client.initialize',
  tier: 0,
  title: 'Initialize, initialized, then requests',
  section: 'MCP Lifecycle',
  judge(seen) {
    const [session] = seen.sessions;
    if (!session)
      return fail({
        detail: 'the client never completed an initialize with the probe server',
        expected: 'initialize, then notifications/initialized, then tools/list',
        received: 'no session',
      });
    const params = session.initialize;
    const info = params.clientInfo as { name?: unknown; version?: unknown } | undefined;
    if (typeof params.protocolVersion !== 'string' || typeof info?.name !== 'string')
      return fail({
        detail: 'the initialize request lacks protocolVersion or clientInfo',
        expected: '{ protocolVersion, capabilities, clientInfo: { name, version } }',
        received: shown(params),
      });
    if (!session.notifications('notifications/initialized').length)
      return fail({
        detail: 'the client did not send notifications/initialized',
        expected: 'notifications/initialized once initialize is answered (MCP Lifecycle)',
        received: 'no such notification',
      });
    if (!session.requests('tools/list').length)
      return fail({
        detail: 'the client was asked to list the tools and did not',
        expected: 'a tools/list request',
        received: `requests: ${session.messages
          .filter((m) => m.direction === 'in' && 'method' in m.message)
          .map((m) => ('method' in m.message ? m.message.method : ''))
          .join(', ')}`,
      });
    return pass(
      `${info.name} ${String(info.version)} initialized with protocol ${params.protocolVersion} and listed the tools`,
    );
  },
};

const negotiation: ClientCheck = {
  id: 'mgp.client.negotiation',
  tier: 1,
  title: 'Capability negotiation',
  section: 'MGP §2.2, §2.4',
  extension: '§2 Negotiation',
  judge(seen) {
    const session = seen.sessions.find(offersMgp);
    if (!session)
      return missing(
        'the client did not offer capabilities.mgp at initialize',
        `offer { mgp: { version: "${MGP_VERSION}", extensions: [...] } } in the initialize capabilities (MGP §2.2)`,
      );
    const offer = session.offer.mgp as Record<string, unknown>;
    const problems: string[] = [];
    const match = typeof offer.version === 'string' ? SEMVER.exec(offer.version) : null;
    if (!match) problems.push(`version ${shown(offer.version)} is not semver`);
    else if (match[1] !== MGP_VERSION.split('.')[0])
      problems.push(`major version ${match[1]} does not match ${MGP_VERSION} (§2.4 rule 4)`);
    const extensions = offer.extensions;
    if (!Array.isArray(extensions) || !extensions.every((e) => typeof e === 'string'))
      problems.push(`extensions ${shown(extensions)} is not a list of names`);
    if (problems.length)
      return fail({
        detail: problems.join('; '),
        expected: '{ version: semver, extensions: string[] } (MGP §2.2)',
        received: shown(offer),
      });
    // §2.4: the server's answer is the intersection; a client must take it and go on.
    if (!session.requests('tools/list').length)
      return fail({
        detail: 'after the probe answered with capabilities.mgp the client went no further',
        expected: 'the session to go on (tools/list) with the extensions both sides have',
        received: `the client sent ${session.messages.filter((m) => m.direction === 'in').length} messages and no tools/list`,
      });
    return pass(
      `offered mgp ${String(offer.version)} with ${(extensions as string[]).length ? (extensions as string[]).join(', ') : 'no extensions'}, and went on once the probe answered with mgp`,
    );
  },
};

export const NEGOTIATION_SCENARIO: ClientScenario = {
  name: 'mgp-negotiation',
  context: { ask: 'connect and list the tools' },
  tools: () => [safeTool('echo', 'Echo a fixed text', 'echo')],
  checks: [initialize, negotiation],
};

const SAFE_TOOL = 'read_clock';
const DANGEROUS_TOOL = 'delete_all_files';

const securityMetadata: ClientCheck = {
  id: 'mgp.client.security-metadata',
  tier: 1,
  title: 'Security metadata honoured: no dangerous call unapproved',
  section: 'MGP §4.3, §4.4',
  extension: '§4 Security Metadata',
  judge(seen) {
    const [dangerous] = allCalls(seen, DANGEROUS_TOOL);
    if (dangerous)
      return fail({
        detail: `${DANGEROUS_TOOL} (risk_level "dangerous", confirmation_required) reached the server with no approval given`,
        expected: `${DANGEROUS_TOOL} held back until someone approves it (MGP §4.4: explicit confirmation)`,
        received: `tools/call ${DANGEROUS_TOOL}`,
        exchange: exchangeOf(dangerous.session, dangerous.call.id),
        advice:
          'read `security` of each listed tool; ask before a dangerous or confirmation_required tool runs, and refuse when no one can be asked',
      });
    if (!allCalls(seen, SAFE_TOOL).length) {
      if (!seen.sessions.some(offersMgp))
        return missing(`the client called neither ${SAFE_TOOL} nor ${DANGEROUS_TOOL}`);
      return fail({
        detail: `${SAFE_TOOL} (risk_level "safe") was not called`,
        expected: `${SAFE_TOOL} called without confirmation (MGP §4.4: safe executes without it)`,
        received: 'no tools/call of it',
      });
    }
    return pass(`${SAFE_TOOL} (safe) ran; ${DANGEROUS_TOOL} (dangerous) never reached the server`);
  },
};

export const SECURITY_SCENARIO: ClientScenario = {
  name: 'mgp-security-metadata',
  context: {
    ask: 'list the tools and call both, giving no approval',
    safe_tool: SAFE_TOOL,
    dangerous_tool: DANGEROUS_TOOL,
  },
  tools: () => [
    safeTool(SAFE_TOOL, 'Read the current time', '12:00'),
    {
      name: DANGEROUS_TOOL,
      description: 'Delete every file in the workspace',
      inputSchema: OBJECT_SCHEMA,
      security: {
        risk_level: 'dangerous',
        side_effects: ['filesystem'],
        validator: 'sandbox',
        reversible: false,
        confirmation_required: true,
      },
      annotations: { destructiveHint: true, readOnlyHint: false },
      run: async () => text('every file deleted (not really: this is the validator)'),
    },
  ],
  checks: [securityMetadata],
};
