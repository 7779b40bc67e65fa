/**
 * What the host told this server: the feature sets it enabled and the scope lists it sent with
 * them (MCPL §5.3, §6.7, §7.2). Tools and server-initiated messages of a set the host has not
 * enabled are refused here too (§6.6).
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { FEATURE_SETS, isRecord, Json } from './wire';

export const FEATURE_SET_NOT_ENABLED = -32001;
export const UNKNOWN_FEATURE_SET = -32003;

export interface ScopeLists {
  whitelist: string[];
  blacklist: string[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export class McplSession {
  /** Whether the host advertised `experimental.mcpl` at initialize (§5.2). */
  hostSpeaksMcpl = false;
  readonly enabled = new Set<string>();
  scopes: Record<string, ScopeLists> = {};
  updates = 0;
  /** Sets declared after initialization through featureSets/changed (§6.7). */
  readonly extraSets = new Set<string>();

  /** §5.3, §6.7 featureSets/update. */
  update(params: Json): void {
    this.updates++;
    for (const name of strings(params.enabled)) this.enabled.add(name);
    for (const name of strings(params.disabled)) this.enabled.delete(name);
    if (isRecord(params.scopes))
      this.scopes = Object.fromEntries(
        Object.entries(params.scopes).map(([name, lists]) => [
          name,
          {
            whitelist: strings(isRecord(lists) ? lists.whitelist : undefined),
            blacklist: strings(isRecord(lists) ? lists.blacklist : undefined),
          },
        ]),
      );
    console.error(
      `mcpl-example-server: feature sets enabled by the host: ${[...this.enabled].join(', ') || '(none)'}`,
    );
  }

  isDeclared(name: string): boolean {
    return name in FEATURE_SETS || this.extraSets.has(name);
  }

  /** §6.6: throws the error a message of a set the host has not enabled gets. */
  require(name: string): void {
    if (!this.isDeclared(name))
      throw new McpError(UNKNOWN_FEATURE_SET, `Unknown feature set: ${name}`, { featureSet: name });
    if (!this.enabled.has(name))
      throw new McpError(FEATURE_SET_NOT_ENABLED, `Feature set not enabled: ${name}`, {
        featureSet: name,
        canEnable: true,
      });
  }
}
