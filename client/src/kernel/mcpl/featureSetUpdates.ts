/**
 * Feature sets between the host and one server over time (MCPL §5.3, §6.3, §6.7, §11.5): the
 * `featureSets/update` the host sends when what it enables changes, the `featureSets/changed` the
 * server sends when what it declares changes, the sets a user's switch names, and the per-set policy
 * of the config.
 */
import type { FeatureSetPolicy, McplSettings } from '../config/types';
import type { ServerSession } from '../connection/service';
import { featureSetDeclaration } from './capabilities';
import { featureSetMatches } from './featureSets';
import type { McplAudit } from './mcplAudit';
import type { McplServer } from './mcplServer';
import { FeatureSetDeclaration, isRecord, McplMethods } from './protocol';

/** §11.5: the policy that covers a set: an exact name over a wildcard, a longer wildcard over a shorter. */
export function policyFor(
  settings: McplSettings | undefined,
  featureSet: string,
): FeatureSetPolicy {
  const table = settings?.featureSetPolicy ?? {};
  const best = Object.keys(table)
    .filter((pattern) => featureSetMatches(pattern, featureSet))
    .sort((a, b) => (a === featureSet ? -1 : b === featureSet ? 1 : b.length - a.length))[0];
  return best ? table[best] : {};
}

/** §6.7 featureSets/changed: the sets added (those that parse) and the names removed. */
export function readFeatureSetsChanged(
  params: Record<string, unknown>,
  problems: string[],
): { added: FeatureSetDeclaration[]; removed: string[] } {
  const added = isRecord(params.added)
    ? Object.entries(params.added).flatMap(([name, raw]) => {
        const set = featureSetDeclaration(name, raw, problems);
        return set ? [set] : [];
      })
    : [];
  const removed = Array.isArray(params.removed)
    ? params.removed.filter((n): n is string => typeof n === 'string')
    : [];
  return { added, removed };
}

/** The names of the server's sets that `pattern` (a name or a wildcard, §6.3) covers; none is an error. */
export function featureSetsMatching(server: McplServer, pattern: string): string[] {
  const declared = server.table.list().map((set) => set.name);
  const names = declared.filter((name) => featureSetMatches(pattern, name));
  if (!names.length)
    throw new Error(
      `${server.id} declares no feature set "${pattern}" (it declares ${
        declared.join(', ') || 'none'
      })`,
    );
  return names;
}

/** §5.3, §6.7: sends featureSets/update when it differs from the last one sent. */
export async function sendFeatureSetUpdate(
  server: McplServer,
  session: ServerSession | undefined,
  settings: McplSettings | undefined,
  audit: McplAudit,
  why: string,
): Promise<void> {
  server.table.useSettings(settings);
  const update = server.table.update();
  const text = JSON.stringify(update);
  if (text === server.sent) return;
  if (!session) return;
  server.sent = text;
  try {
    await session.connection.notify(McplMethods.featureSetsUpdate, { ...update });
    audit.record('feature_sets', {
      serverId: server.id,
      outcome: 'UPDATED',
      actor: { type: 'kernel', id: 'mgp-kernel' },
      details: { reason: why, enabled: update.enabled, disabled: update.disabled },
    });
  } catch (error) {
    server.sent = undefined;
    session.log('warning', `MCPL featureSets/update failed: ${(error as Error).message}`);
  }
}
