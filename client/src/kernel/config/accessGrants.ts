import type { ConfiguredGrant, KernelConfig } from './types';

const grantsOf = new WeakMap<KernelConfig, ConfiguredGrant[]>();

/** The config's access grants (MGP §5), `[kernel]` ones and each server's, gathered once per config. */
export function configGrants(config: KernelConfig): ConfiguredGrant[] {
  let grants = grantsOf.get(config);
  if (!grants) {
    grants = [
      ...config.kernel.accessGrants,
      ...config.servers.flatMap((server) => server.policy.accessGrants),
    ];
    grantsOf.set(config, grants);
  }
  return grants;
}
