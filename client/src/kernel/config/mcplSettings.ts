/**
 * `[servers.mcpl]` of mgp.toml, read from a table the checker has validated, defaults filled in
 * (shared/src/schemas/mgpMcpl.ts describes each key).
 */
import type { FeatureSetPolicy, InferencePolicy, McplSettings, PushEventsPolicy } from './types';

type Table = Record<string, unknown>;

export const DEFAULT_PUSH_EVENTS_PER_SECOND = 10;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.includes(value as T) ? (value as T) : undefined;
}

const PUSH: readonly PushEventsPolicy[] = ['turn', 'queue', 'reject'];
const INFERENCE: readonly InferencePolicy[] = ['ask', 'allow', 'deny'];

function featureSetPolicy(value: unknown): Record<string, FeatureSetPolicy> {
  if (!isTable(value)) return {};
  const out: Record<string, FeatureSetPolicy> = {};
  for (const [name, table] of Object.entries(value)) {
    if (!isTable(table)) continue;
    out[name] = {
      pushEvents: oneOf(table.push_events, PUSH),
      inference: oneOf(table.inference, INFERENCE),
      model: typeof table.model === 'string' ? table.model : undefined,
    };
  }
  return out;
}

function scopes(value: unknown): McplSettings['scopes'] {
  if (!isTable(value)) return {};
  return Object.fromEntries(
    Object.entries(value)
      .filter((entry): entry is [string, Table] => isTable(entry[1]))
      .map(([name, table]) => [
        name,
        { whitelist: strings(table.whitelist), blacklist: strings(table.blacklist) },
      ]),
  );
}

/** The settings of `[servers.mcpl]`; a server without the table gets the defaults (every set off). */
export function mcplSettings(value: unknown): McplSettings {
  const table = isTable(value) ? value : {};
  return {
    enabled: table.enabled !== false,
    enabledFeatureSets: strings(table.enabled_feature_sets),
    disabledFeatureSets: strings(table.disabled_feature_sets),
    scopes: scopes(table.scopes),
    pushEvents: oneOf(table.push_events, PUSH) ?? 'queue',
    pushEventsPerSecond:
      typeof table.push_events_per_second === 'number' && table.push_events_per_second >= 1
        ? table.push_events_per_second
        : DEFAULT_PUSH_EVENTS_PER_SECOND,
    inference: oneOf(table.inference, INFERENCE) ?? 'ask',
    hookFailure: table.hook_failure === 'closed' ? 'closed' : 'open',
    featureSetPolicy: featureSetPolicy(table.feature_set_policy),
  };
}
