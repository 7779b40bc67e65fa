/**
 * `[servers.mcpl]` of mgp.toml: which MCPL feature sets the host enables for a server (MCPL §6) and
 * the scope lists it sends with them (MCPL §7), both as in `featureSets/update` (MCPL §5.3, §6.7).
 */
import { described, enumOf, JsonSchema, patternOf } from './schemaTypes';
import {
  FEATURE_SET_NAME,
  FEATURE_SET_WILDCARD,
  MCPL_HOOK_FAILURE_POLICIES,
  MCPL_INFERENCE_POLICIES,
  MCPL_PUSH_EVENT_POLICIES,
} from './vocabulary';

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

function pushEventsPolicy(): JsonSchema {
  return {
    type: 'string',
    ...enumOf(MCPL_PUSH_EVENT_POLICIES),
    ...described(
      'What an accepted push/event does: turn, queue (default) or reject (MCPL §9).',
      'What an accepted `push/event` does (MCPL §9): `turn` starts a new turn of the agent conversation, ' +
        '`queue` (the default) keeps it in the Events view until you send it to the agent, `reject` refuses it.',
    ),
  };
}

function inferencePolicy(): JsonSchema {
  return {
    type: 'string',
    ...enumOf(MCPL_INFERENCE_POLICIES),
    ...described(
      'Whether inference/request from this server reaches your model: ask (default), allow or deny (MCPL §11).',
      'Whether `inference/request` from this server reaches your model (MCPL §11): `ask` (the default) asks once per feature set for the session, `allow` routes it, `deny` refuses it.',
    ),
  };
}

const featureSetPolicySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    push_events: pushEventsPolicy(),
    inference: inferencePolicy(),
    model: {
      type: 'string',
      minLength: 1,
      ...described(
        "The model to prefer for this feature set's inference requests (MCPL §11.5 routing).",
        "A model name to prefer for this feature set's `inference/request` (MCPL §11.5: routing by server and feature set). A hint: the nearest configured model is used.",
      ),
    },
  },
  ...described(
    'Policy for the feature sets this name or wildcard covers (MCPL §11.5).',
    'Policy for the feature sets this name or wildcard covers; an exact name wins over a wildcard, a longer wildcard over a shorter (MCPL §11.5).',
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
    push_events: pushEventsPolicy(),
    push_events_per_second: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      ...described(
        'Push events accepted per second from this server, with bursts of twice as many (default 10, MCPL §9).',
        'Push events accepted per second from this server (MCPL §9), with bursts of up to twice as many; the rest are rejected with a reason. Default 10.',
      ),
    },
    inference: inferencePolicy(),
    hook_failure: {
      type: 'string',
      ...enumOf(MCPL_HOOK_FAILURE_POLICIES),
      ...described(
        'When a blocking afterInference hook times out or fails: open (default) or closed (MCPL §13.3).',
        'When a blocking `context/afterInference` hook times out or fails (MCPL §13.3): `open` (the default, recommended) shows the unmodified answer, `closed` shows an error instead.',
      ),
    },
    feature_set_policy: {
      type: 'object',
      patternProperties: {
        [patternOf(FEATURE_SET_NAME)]: featureSetPolicySchema,
        [patternOf(FEATURE_SET_WILDCARD)]: featureSetPolicySchema,
      },
      additionalProperties: false,
      ...described(
        'Push-event, inference and model policy per feature set or wildcard, one [servers.mcpl.feature_set_policy."<name>"] table each (MCPL §11.5).',
        'Push-event, inference and model policy per feature set, one `[servers.mcpl.feature_set_policy."memory.*"]` table each (quote the name: it has dots). Keys are names or wildcards (MCPL §6.3, §11.5).',
      ),
    },
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
