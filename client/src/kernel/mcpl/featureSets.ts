/**
 * Feature sets of one server (MCPL §6): what it declares, which the host enables (the config's
 * lists with wildcards, §6.3, then the user's own switches), the `featureSets/update` that says so
 * (§5.3, §6.7), and the check of every server-initiated message's `featureSet` tag (§6.5, §6.6).
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { featureSetMatches } from '@shared/configCheck/semantic/featureSets';
import type { McplSettings } from '../config/types';
import {
  FeatureSetDeclaration,
  FeatureUse,
  mcplError,
  McplErrorCodes,
  wireError,
} from './protocol';

export { featureSetMatches };

/** Where a set's state comes from, for the views. */
export type EnabledSource = 'user' | 'config' | 'default';

export interface FeatureSetView extends FeatureSetDeclaration {
  enabled: boolean;
  source: EnabledSource;
}

export interface FeatureSetsUpdate {
  enabled: string[];
  disabled: string[];
  scopes: Record<string, { whitelist: string[]; blacklist: string[] }>;
}

/** Whether the config enables a set: some enabled pattern covers it and no disabled one does. */
export function configEnables(settings: McplSettings | undefined, name: string): boolean {
  if (!settings) return false;
  return (
    settings.enabledFeatureSets.some((p) => featureSetMatches(p, name)) &&
    !settings.disabledFeatureSets.some((p) => featureSetMatches(p, name))
  );
}

function configMentions(settings: McplSettings | undefined, name: string): boolean {
  if (!settings) return false;
  return [...settings.enabledFeatureSets, ...settings.disabledFeatureSets].some((p) =>
    featureSetMatches(p, name),
  );
}

export class FeatureSetTable {
  private readonly declared = new Map<string, FeatureSetDeclaration>();

  constructor(
    declared: Iterable<FeatureSetDeclaration>,
    private settings: McplSettings | undefined,
    /** The user's switches (Servers view, CLI), by set name: they win over the config. */
    private readonly overrides: () => Readonly<Record<string, boolean>>,
  ) {
    for (const set of declared) this.declared.set(set.name, set);
  }

  useSettings(settings: McplSettings | undefined): void {
    this.settings = settings;
  }

  get(name: string): FeatureSetDeclaration | undefined {
    return this.declared.get(name);
  }

  list(): FeatureSetView[] {
    return [...this.declared.values()].map((set) => ({
      ...set,
      enabled: this.isEnabled(set.name),
      source: this.sourceOf(set.name),
    }));
  }

  isEnabled(name: string): boolean {
    if (!this.declared.has(name)) return false;
    return this.overrides()[name] ?? configEnables(this.settings, name);
  }

  private sourceOf(name: string): EnabledSource {
    if (this.overrides()[name] !== undefined) return 'user';
    return configMentions(this.settings, name) ? 'config' : 'default';
  }

  /** Enabled sets that list `use` among their `uses` (§6.2). */
  enabledWith(use: FeatureUse): FeatureSetDeclaration[] {
    return [...this.declared.values()].filter(
      (set) => set.uses.includes(use) && this.isEnabled(set.name),
    );
  }

  /** Whether the server declares any set with `use` (then that use is gated by its sets, §14.1). */
  declares(use: FeatureUse): boolean {
    return [...this.declared.values()].some((set) => set.uses.includes(use));
  }

  /** §6.7 featureSets/changed: sets added (or redeclared) and removed. */
  change(added: Iterable<FeatureSetDeclaration>, removed: Iterable<string>): void {
    for (const name of removed) this.declared.delete(name);
    for (const set of added) this.declared.set(set.name, set);
  }

  /** §5.3, §6.7: every declared set as enabled or disabled, and the scope lists of the scoped ones. */
  update(): FeatureSetsUpdate {
    const enabled: string[] = [];
    const disabled: string[] = [];
    for (const name of this.declared.keys()) (this.isEnabled(name) ? enabled : disabled).push(name);
    const scopes: FeatureSetsUpdate['scopes'] = {};
    for (const [name, lists] of Object.entries(this.settings?.scopes ?? {}))
      scopes[name] = { whitelist: [...lists.whitelist], blacklist: [...lists.blacklist] };
    return { enabled, disabled, scopes };
  }

  /**
   * §6.5, §6.6: the set a server-initiated message is tagged with, when it is declared, enabled and
   * (given `use`) declares that use; otherwise the JSON-RPC error to answer with.
   */
  check(tag: unknown, use?: FeatureUse): FeatureSetDeclaration {
    if (typeof tag !== 'string' || tag === '')
      throw wireError(
        ErrorCode.InvalidParams,
        'the message has no featureSet tag (MCPL §6.5: server-initiated messages must include it)',
      );
    const set = this.declared.get(tag);
    if (!set)
      throw mcplError(
        McplErrorCodes.unknownFeatureSet,
        `"${tag}" is not a feature set this server declared`,
        { featureSet: tag },
      );
    if (!this.isEnabled(tag))
      throw mcplError(McplErrorCodes.featureSetNotEnabled, `"${tag}" is switched off`, {
        featureSet: tag,
        canEnable: true,
      });
    if (use && !set.uses.includes(use))
      throw wireError(
        ErrorCode.InvalidParams,
        `feature set "${tag}" does not declare "${use}" in its uses (MCPL §6.2)`,
        { featureSet: tag },
      );
    return set;
  }
}
