/**
 * MGP Tier 1 (§17.5): `mgp` negotiated at initialize (§2), security metadata on every tool (§4),
 * and the permissions the server needs declared (§3, §2.3).
 */
import {
  RISK_LEVEL_NAMES,
  SIDE_EFFECT_NAMES,
  STANDARD_PERMISSION_NAMES,
  TRUST_LEVEL_NAMES,
  VALIDATOR_NAMES,
} from '@shared/schemas/vocabulary';
import { MGP_VERSION } from '../../mgp/negotiation';
import {
  type Check,
  type CheckContext,
  fail,
  lastExchange,
  missing,
  pass,
  securityOf,
  shown,
  stringList,
} from '../context';

export const PLAIN_MCP = 'needs MGP, and the server answered no capabilities.mgp (§2)';

const ENABLE_MGP =
  'answer `capabilities.mgp` when the client offers it (with the server kit: enableMgp(server, { permissions, trustLevel }))';

function notMgp(context: CheckContext): string | undefined {
  return context.serverMgp ? undefined : PLAIN_MCP;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/;

const negotiation: Check = {
  id: 'mgp.negotiation',
  tier: 1,
  title: 'Capability negotiation',
  section: 'MGP §2',
  extension: '§2 Negotiation',
  async run(context) {
    const { mgp, serverMgp } = context;
    const exchange = mgp && lastExchange(mgp, 'initialize');
    const raw = mgp?.capabilities.mgp;
    if (raw === undefined || raw === null)
      return missing(
        'the server did not answer with capabilities.mgp when offered MGP',
        ENABLE_MGP,
      );
    if (!serverMgp)
      return fail({
        detail: 'capabilities.mgp is not an object',
        expected:
          '{ version, extensions, permissions_required?, server_id?, trust_level? } (MGP §2.3)',
        received: shown(raw),
        exchange,
      });
    const problems: string[] = [];
    const version = serverMgp.version;
    const match = typeof version === 'string' ? SEMVER.exec(version) : null;
    if (!match) problems.push(`version ${shown(version)} is not semver`);
    else if (match[1] !== MGP_VERSION.split('.')[0])
      problems.push(
        `major version ${match[1]} does not match the client's ${MGP_VERSION} (§2.4 rule 4)`,
      );
    const extensions = stringList(serverMgp.extensions);
    const offered = context.mgpOffer.extensions;
    if (!extensions)
      problems.push(`extensions ${shown(serverMgp.extensions)} is not a list of names`);
    else {
      const unoffered = extensions.filter((name) => !offered.includes(name));
      if (unoffered.length)
        problems.push(
          `extensions the client did not offer: ${unoffered.join(', ')} (the answer is the intersection, §2.4 rule 1)`,
        );
    }
    if (serverMgp.permissions_required !== undefined && !stringList(serverMgp.permissions_required))
      problems.push(
        `permissions_required ${shown(serverMgp.permissions_required)} is not a list of names`,
      );
    if (serverMgp.server_id !== undefined && typeof serverMgp.server_id !== 'string')
      problems.push(`server_id ${shown(serverMgp.server_id)} is not a string`);
    if (
      serverMgp.trust_level !== undefined &&
      !(TRUST_LEVEL_NAMES as readonly unknown[]).includes(serverMgp.trust_level)
    )
      problems.push(
        `trust_level ${shown(serverMgp.trust_level)} is not one of ${TRUST_LEVEL_NAMES.join(', ')}`,
      );
    if (problems.length)
      return fail({
        detail: 'capabilities.mgp does not follow MGP §2.3',
        expected:
          'version (semver, same major), extensions ⊆ offered, optional permissions_required, server_id, trust_level',
        received: problems.join('; '),
        exchange,
      });
    const minor = match && match[2] !== MGP_VERSION.split('.')[1];
    return pass(
      `MGP ${String(version)}; extensions: ${extensions?.join(', ') || '(none)'}${minor ? ` (minor version differs from ${MGP_VERSION}: a warning before 1.0, §2.5)` : ''}`,
    );
  },
};

const unasked: Check = {
  id: 'mgp.no-mgp-unasked',
  tier: 1,
  title: 'No mgp unless the client offered it',
  section: 'MGP §2.4 rule 3',
  extension: '§2 Negotiation',
  async run(context) {
    const { plain } = context;
    const raw = plain.capabilities.mgp;
    if (raw !== undefined)
      return fail({
        detail: 'the server answered with capabilities.mgp to a client that offered no mgp',
        expected: 'no mgp in the initialize result when the request had none (MUST NOT)',
        received: `capabilities.mgp = ${shown(raw)}`,
        exchange: lastExchange(plain, 'initialize'),
        advice: 'answer mgp only when the initialize request carries capabilities.mgp',
      });
    if (!context.serverMgp) return missing(PLAIN_MCP);
    return pass('a plain MCP client gets a plain MCP answer');
  },
};

const REVERSE_DOMAIN = /^[a-z][a-z0-9-]*(\.[a-z0-9_-]+){2,}$/i;

function permissionProblem(name: string): string | undefined {
  if ((STANDARD_PERMISSION_NAMES as readonly string[]).includes(name)) return undefined;
  if (REVERSE_DOMAIN.test(name)) return undefined;
  return `"${name}" is neither a standard permission (§3.2) nor in reverse-domain notation (com.example.name)`;
}

function securityProblems(security: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const oneOf = (field: string, value: unknown, names: readonly string[]) => {
    if (value !== undefined && !names.includes(value as string))
      problems.push(`${field} ${shown(value)} is not one of ${names.join(', ')}`);
  };
  if (security.risk_level === undefined) problems.push('risk_level is missing');
  else oneOf('risk_level', security.risk_level, RISK_LEVEL_NAMES);
  oneOf('validator', security.validator, VALIDATOR_NAMES);
  for (const field of ['permissions_required', 'side_effects'])
    if (security[field] !== undefined && !stringList(security[field]))
      problems.push(`${field} is not a list of names`);
  for (const effect of stringList(security.side_effects) ?? [])
    oneOf('side effect', effect, SIDE_EFFECT_NAMES);
  for (const field of ['reversible', 'confirmation_required'])
    if (security[field] !== undefined && typeof security[field] !== 'boolean')
      problems.push(`${field} ${shown(security[field])} is not a boolean`);
  return problems;
}

const securityMetadata: Check = {
  id: 'mgp.security-metadata',
  tier: 1,
  title: 'Security metadata on every tool',
  section: 'MGP §4',
  extension: '§4 Security Metadata',
  async run(context) {
    const why = notMgp(context);
    if (why) return missing(why);
    const tools = context.mgpTools;
    if (!tools)
      return fail({ detail: 'tools/list failed on the MGP session', received: 'no tools' });
    if (!tools.length) return pass('the server lists no tools: nothing to declare');
    const without = tools.filter((tool) => !securityOf(tool));
    if (without.length === tools.length)
      return context.negotiated.has('security')
        ? fail({
            detail:
              'the server negotiated the security extension but no tool carries security metadata',
            expected: 'a security object with risk_level on every tool in tools/list (§4.2)',
            received: `no security on ${tools.map((tool) => tool.name).join(', ')}`,
            exchange: lastExchange(context.mgp!, 'tools/list'),
            advice:
              'declare security per tool (with the server kit: secure(server, tool, { risk_level }))',
          })
        : missing(
            'no tool carries security metadata',
            'add `security` to each tool and `security` to the negotiated extensions',
          );
    const problems = without.map((tool) => `${tool.name}: no security`);
    for (const tool of tools) {
      const security = securityOf(tool);
      if (security)
        problems.push(...securityProblems(security).map((problem) => `${tool.name}: ${problem}`));
    }
    if (problems.length)
      return fail({
        detail: 'security metadata is missing or malformed on some tools',
        expected:
          'on every tool: risk_level safe|moderate|dangerous, and the optional fields of §4.3 with their types',
        received: problems.slice(0, 8).join('; '),
        exchange: lastExchange(context.mgp!, 'tools/list'),
      });
    const counts = new Map<string, number>();
    for (const tool of tools) {
      const risk = String(securityOf(tool)?.risk_level);
      counts.set(risk, (counts.get(risk) ?? 0) + 1);
    }
    return pass(
      `${tools.length} tool${tools.length === 1 ? '' : 's'}: ${[...counts].map(([risk, n]) => `${n} ${risk}`).join(', ')}`,
    );
  },
};

const permissionDeclarations: Check = {
  id: 'mgp.permission-declarations',
  tier: 1,
  title: 'Permission declarations',
  section: 'MGP §3.2, §2.3',
  extension: '§3 Permission Approval',
  async run(context) {
    const why = notMgp(context);
    if (why) return missing(why);
    const declared = stringList(context.serverMgp?.permissions_required);
    const needed = new Map<string, string[]>();
    for (const tool of context.mgpTools ?? [])
      for (const permission of stringList(securityOf(tool)?.permissions_required) ?? [])
        needed.set(permission, [...(needed.get(permission) ?? []), tool.name]);
    const problems: string[] = [];
    for (const permission of new Set([...(declared ?? []), ...needed.keys()])) {
      const problem = permissionProblem(permission);
      if (problem) problems.push(problem);
    }
    const undeclared = [...needed].filter(([permission]) => !declared?.includes(permission));
    for (const [permission, tools] of undeclared)
      problems.push(
        `${tools.join(', ')} require${tools.length === 1 ? 's' : ''} "${permission}", which capabilities.mgp.permissions_required does not list`,
      );
    if (problems.length)
      return fail({
        detail: 'the permissions the server needs are not declared as §3 says',
        expected:
          'permissions_required at initialize listing every permission its tools require, each a §3.2 name or reverse-domain',
        received: problems.join('; '),
        exchange: context.mgp && lastExchange(context.mgp, 'initialize'),
      });
    if (!declared) return pass('declares no permissions, and no tool requires one');
    return pass(`declares ${declared.length ? declared.join(', ') : 'no permissions'}`);
  },
};

export const TIER1_CHECKS: readonly Check[] = [
  negotiation,
  unasked,
  securityMetadata,
  permissionDeclarations,
];
