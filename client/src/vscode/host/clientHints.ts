/**
 * MCP draft §5 in the editor: the client resource hints go to servers only when the person set
 * `mgp.drafts.clientResourceHints` in their own user settings. The setting is application-scoped, so
 * VS Code ignores it in a workspace's settings; the value read here is the user's own
 * (`globalValue`) all the same, so that no workspace file can turn the hints on. Pure (no `vscode`).
 */
import type { ClientHintsChoice } from '../../kernel';

export const CLIENT_HINTS_SECTION = 'mgp.drafts';
export const CLIENT_HINTS_KEY = 'clientResourceHints';

/** What `inspect()` says of the setting: only `globalValue` counts. */
export function clientHintsSetting(
  inspected: { globalValue?: unknown } | undefined,
): ClientHintsChoice {
  const value = inspected?.globalValue;
  if (value === 'on') return { enabled: true, gpu: false };
  if (value === 'onWithGpu') return { enabled: true, gpu: true };
  return { enabled: false };
}
