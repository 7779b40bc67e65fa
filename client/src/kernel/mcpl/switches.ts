/**
 * The user's own feature-set switches (the Servers view's toggles, `mgp featuresets enable|disable`),
 * per server, kept in the workspace's state folder: they win over `[servers.mcpl]` and survive a
 * restart. Resetting a set hands it back to the config.
 */
import { join } from 'node:path';
import { JsonStore } from '../store/jsonStore';
import { isRecord } from './protocol';

interface Document {
  version: 1;
  servers: Record<string, Record<string, boolean>>;
}

function isDocument(value: unknown): value is Document {
  return isRecord(value) && value.version === 1 && isRecord(value.servers);
}

export class FeatureSetSwitches {
  private readonly store: JsonStore<Document>;

  constructor(stateDir: string) {
    this.store = new JsonStore<Document>({
      path: join(stateDir, 'mcpl-feature-sets.json'),
      defaultValue: () => ({ version: 1, servers: {} }),
      validate: isDocument,
    });
  }

  load(): Promise<unknown> {
    return this.store.load();
  }

  of(serverId: string): Readonly<Record<string, boolean>> {
    return this.store.value.servers[serverId] ?? {};
  }

  /** `enabled` undefined: back to what the config says. */
  async set(serverId: string, names: string[], enabled: boolean | undefined): Promise<void> {
    await this.store.update((doc) => {
      const server = (doc.servers[serverId] ??= {});
      for (const name of names) {
        if (enabled === undefined) delete server[name];
        else server[name] = enabled;
      }
      if (Object.keys(server).length === 0) delete doc.servers[serverId];
    });
  }
}
