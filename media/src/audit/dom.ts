/** Small DOM and formatting helpers of the Audit Trail webview. */
export type Child = Node | string;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs))
    if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Local time as `YYYY-MM-DD HH:MM:SS.mmm`. */
export function localTime(ms: number): string {
  if (!ms) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** The value of a datetime-local input for an ISO time, in local time. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** ISO time for a datetime-local input's value (local time), or undefined when empty or invalid. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024
    ? `${(n / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(n / 1024))} KB`;
}

const PROBLEMS = new Set([
  'denied',
  'blocked',
  'failure',
  'error',
  'rejected',
  'invalid',
  'not_found',
]);

export function isProblemResult(result: string): boolean {
  return PROBLEMS.has(result.toLowerCase());
}
