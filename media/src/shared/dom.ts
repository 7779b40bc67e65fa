/** Small DOM and formatting helpers shared by the webview front ends. Text is always set as text, never as HTML. */
export type Child = Node | string;
export type Attrs = Record<string, string | undefined | false>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs))
    if (value !== undefined && value !== false) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * The element with the keyboard focus, only while this panel has the focus. A panel that draws again
 * in the background must not call focus() to keep it: the workbench would move the focus into the
 * panel and close, say, the command palette someone is typing in.
 */
export function focusedHere(): HTMLElement | null {
  return document.hasFocus() ? (document.activeElement as HTMLElement | null) : null;
}

export function button(
  label: Child,
  onClick: (event: MouseEvent) => void,
  attrs: Attrs = {},
): HTMLButtonElement {
  const node = el('button', { type: 'button', ...attrs }, label);
  node.addEventListener('click', onClick);
  return node;
}

let counter = 0;
/** A document-unique id for label/for and aria-describedby. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** 850 ms, 4.2 s, 3 min 5 s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Calls `fn` once `ms` after the last call. */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
}
