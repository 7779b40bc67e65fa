/**
 * `[servers.mcpl]` of mgp.toml: which MCPL feature sets the host enables for a server (MCPL §6) and
 * the scope lists it sends with them (MCPL §7), both as in `featureSets/update` (MCPL §5.3, §6.7).
 */
import { described, JsonSchema, patternOf } from './schemaTypes';
import { FEATURE_SET_NAME } from './vocabulary';

function featureSetList(which: 'enabled' | 'disabled'): JsonSchema {
  const verb = which === 'enabled' ? 'enables' : 'disables';
  return {
    type: 'array',
    uniqueItems: true,
    items: {
      type: 'string',
      ...described(
        'A feature-set name such as memory.retrieval, or a wildcard such as memory.* (MCPL §6.3).',
        'A feature-set name such as `memory.retrieval`, or a wildcard such as `memory.*` for every `memory.` set (MCPL §6.3).',
      ),
    },
    ...described(
      `Feature sets the host ${verb} for this server, by name or wildcard; sent as featureSets/update "${which}" (MCPL §5.3, §6.3).`,
      `Feature sets the host ${verb} for this server, sent after initialization as the \`${which}\` list of \`featureSets/update\` (MCPL §5.3, §6.7). ` +
        'Names are dot-separated (`memory.retrieval`); a wildcard `memory.*` covers every `memory.` set (MCPL §6.3). ' +
        (which === 'disabled'
          ? 'A set both enabled and disabled stays disabled.'
          : 'A server-initiated message tagged with a set that is not enabled is rejected (MCPL §6.6).'),
    ),
    examples: [
      which === 'enabled' ? ['memory.retrieval', 'memory.extraction'] : ['memory.consolidation'],
    ],
  };
}

function scopeList(which: 'whitelist' | 'blacklist'): JsonSchema {
  const effect =
    which === 'whitelist'
      ? 'approved without asking'
      : 'denied, even when a whitelist pattern also matches';
  return {
    type: 'array',
    uniqueItems: true,
    items: {
      type: 'string',
      minLength: 1,
      ...described(
        'A pattern matched against scope labels, e.g. /project/** or #dev-* (MCPL §7.2, §7.3).',
        'A pattern matched against scope **labels**, e.g. `/project/**` or `#dev-*` (MCPL §7.2, §7.3).',
      ),
    },
    ...described(
      `Scope label patterns whose elevation requests are ${effect} (MCPL §7.2, §7.6).`,
      `Scope label patterns whose \`scope/elevate\` requests are ${effect} (MCPL §7.2, §7.6). ` +
        'The blacklist is checked first, then the whitelist; a label matching neither is left to the host, which may ask the user.',
    ),
    examples: [which === 'whitelist' ? ['/project/**', '/tmp/**'] : ['**/.env', '**/secrets/**']],
  };
}

const scopeSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { whitelist: scopeList('whitelist'), blacklist: scopeList('blacklist') },
  ...described(
    'Whitelist and blacklist of scope labels for one scoped feature set (MCPL §7.2).',
    'The `whitelist` and `blacklist` of scope labels for one scoped feature set, sent in the `scopes` of `featureSets/update` (MCPL §7.2).',
  ),
};

export const serverMcplSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      ...described(
        'false turns MCPL off for this server, which is then spoken to as plain MCP (MCPL §3, §5.2).',
        '`false` turns MCPL off for this server: the host does not advertise `experimental.mcpl` to it and treats it as plain MCP (MCPL §3, §5.2). ' +
          'When left out, MCPL is used if the server advertises it.',
      ),
    },
    enabled_feature_sets: featureSetList('enabled'),
    disabled_feature_sets: featureSetList('disabled'),
    scopes: {
      type: 'object',
      patternProperties: { [patternOf(FEATURE_SET_NAME)]: scopeSchema },
      additionalProperties: false,
      ...described(
        'Scope lists per scoped feature set, one [servers.mcpl.scopes."<feature set>"] table each (MCPL §7.2).',
        'Scope lists per scoped feature set, one `[servers.mcpl.scopes."files.edit"]` table each (quote the name: it has dots), ' +
          'keyed by the feature-set name the server declares with `scoped: true` (MCPL §7.1, §7.2). Wildcards are not keys: the server receives the keys as they are.',
      ),
    },
  },
  ...described(
    'MCPL settings of this server: feature sets enabled or disabled and scoped access lists (MCPL §6, §7).',
    'MCPL (MCP Live) settings of this server: which feature sets the host enables or disables (MCPL §6) and the whitelist/blacklist of each scoped one (MCPL §7). ' +
      'The host sends them with `featureSets/update` after initialization (MCPL §5.3).',
  ),
};
