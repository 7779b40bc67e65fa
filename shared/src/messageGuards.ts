/** Checks of what a webview sent: it is untrusted input, judged field by field. */

export type Loose = Record<string, unknown>;

export const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 1000;
export const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
export const isToolKey = (m: Loose) => isText(m.serverId) && isText(m.toolName);
