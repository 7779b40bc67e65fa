/**
 * Servers registered at run time (MGP §15.4), kept on disk only when `[kernel] keep_registered_servers`
 * says so; then the next session starts them again (they were approved when registered).
 */
import { join } from 'node:path';
import type { ConfiguredServer } from '../config/types';
import type { ServerManager } from './serverManager';
import { JsonStore } from '../store/jsonStore';

interface RegistrationsDocument {
  version: 1;
  servers: ConfiguredServer[];
}

export class RegisteredServers {
  private readonly store: JsonStore<RegistrationsDocument>;
  private restored = false;

  constructor(
    stateDir: string,
    private readonly manager: ServerManager,
  ) {
    this.store = new JsonStore<RegistrationsDocument>({
      path: join(stateDir, 'registered-servers.json'),
      defaultValue: () => ({ version: 1, servers: [] }),
      validate: (value): value is RegistrationsDocument =>
        typeof value === 'object' &&
        value !== null &&
        (value as RegistrationsDocument).version === 1 &&
        Array.isArray((value as RegistrationsDocument).servers),
    });
  }

  async save(servers: ConfiguredServer[], keep: boolean): Promise<void> {
    await this.store.update((doc) => {
      doc.servers = keep ? servers : [];
    });
  }

  /** Once per kernel: starts the servers kept from an earlier session that are not running now. */
  async restore(): Promise<void> {
    if (this.restored) return;
    this.restored = true;
    await this.store.load();
    for (const server of this.store.value.servers) {
      if (!this.manager.find(server.id)) await this.manager.register(server).catch(() => undefined);
    }
  }
}
