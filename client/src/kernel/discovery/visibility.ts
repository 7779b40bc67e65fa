/**
 * Which kernel tools a model is offered (MGP §16.8): `mgp.tools.discover` and `mgp.tools.request`
 * are the meta-tools, always in its context; `mgp.tools.session*` are optional, offered by
 * discovery; every other kernel tool is administrative, listed but never offered.
 */
import type { ToolIndexEntry } from './types';

export type KernelToolVisibility = 'meta' | 'optional' | 'admin';

export function kernelToolVisibility(name: string): KernelToolVisibility {
  if (name === 'mgp.tools.discover' || name === 'mgp.tools.request') return 'meta';
  if (name === 'mgp.tools.session' || name.startsWith('mgp.tools.session.')) return 'optional';
  return 'admin';
}

/** Whether discovery may offer the tool: any server's tool, and the optional kernel tools. */
export function discoverable(entry: ToolIndexEntry): boolean {
  return !entry.kernel || kernelToolVisibility(entry.name) === 'optional';
}
