/**
 * Messages between the Audit Trail panel (media/src/audit) and its host
 * (client/src/vscode/auditTrail/auditTrailPanel.ts), and the window arithmetic both sides share.
 *
 * The host keeps a compact index of the log and a "display list" (rows, or trace groups and their
 * rows) for the current filter; the webview knows only the list's length and asks for the windows of
 * it that scroll into view (`rows`), at most PAGE_SIZE items at a time. Every view the host computes
 * has a `version`: answers for an older version are dropped, and `stable` says how many leading items
 * of the previous version are unchanged (a live append keeps the rows already fetched).
 */

export interface AuditViewFilter {
  /** Any of these event types. */
  types?: string[];
  serverId?: string;
  toolName?: string;
  /** Compared without regard to case. */
  result?: string;
  traceId?: string;
  /** ISO 8601: records at or after. */
  since?: string;
  /** ISO 8601: records before. */
  until?: string;
}

export interface AuditViewOptions {
  filter: AuditViewFilter;
  groupByTrace: boolean;
  /** Newest records (or trace groups) at the top; the default. */
  newestFirst: boolean;
}

export interface AuditRowItem {
  kind: 'row';
  seq: number;
  /** Milliseconds since the epoch. */
  time: number;
  type: string;
  server: string;
  tool: string;
  result: string;
  /** `type:id`, e.g. `operator:agent.vscode`. */
  actor: string;
  trace: string;
  /** What happened, in plain words (auditSentence). */
  sentence: string;
  /** The permission or approval scope the record is about, or ''. */
  permission: string;
  /** A row shown under its trace's group header. */
  inGroup: boolean;
}

export interface AuditGroupItem {
  kind: 'group';
  trace: string;
  count: number;
  first: number;
  last: number;
  expanded: boolean;
  /** The event types in the group, in order of first appearance (at most a few). */
  types: string[];
  server: string;
  tool: string;
  /** The result of the group's last record. */
  result: string;
  /** Some record of the group was denied, blocked, rejected or failed. */
  problem: boolean;
}

export type AuditItem = AuditRowItem | AuditGroupItem;

/** The values present in the log, for the filter pickers. */
export interface AuditFacets {
  types: string[];
  servers: string[];
  tools: string[];
  results: string[];
}

export type VerifyState =
  | { state: 'running' }
  | {
      state: 'verified';
      records: number;
      lastSeq: number | null;
      headHash: string | null;
      at: string;
    }
  | {
      state: 'broken';
      seq: number | null;
      kind: string;
      reason: string;
      file: string | null;
      line: number | null;
      at: string;
    }
  | { state: 'failed'; reason: string; at: string };

export interface AuditSourceInfo {
  /** A short name: `workspace`, or the other log's folder name. */
  name: string;
  /** What the panel shows: the workspace's trail, or another log's folder. */
  label: string;
  directory: string;
  /** New records appear as the kernel writes them. */
  live: boolean;
}

export interface AuditViewState {
  version: number;
  /** Items in the display list. */
  total: number;
  /** Leading items unchanged since the previous version. */
  stable: number;
  /** Items added at the top since the previous version (a live append, newest first). */
  prepended: number;
  /** Records in the index, and how many pass the filter. */
  records: number;
  matched: number;
  groups: number;
  facets: AuditFacets;
  options: AuditViewOptions;
  /** What the host's index takes in memory, estimated. */
  indexBytes: number;
}

/** Host → webview. */
export type AuditToWebview =
  | { type: 'source'; source: AuditSourceInfo }
  | { type: 'indexing'; records: number }
  /**
   * `optionsSeq`: the last `setOptions` of the webview the host had taken when it sent this view
   * (0 before any); a view that predates the webview's latest change must not reset its controls.
   */
  | { type: 'view'; view: AuditViewState; optionsSeq: number }
  | { type: 'rows'; version: number; start: number; items: AuditItem[] }
  | { type: 'detail'; seq: number; record?: Record<string, unknown>; problem?: string }
  | { type: 'verify'; verify: VerifyState }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string };

export type ExportFormatName = 'jsonl' | 'csv';

/** Webview → host. */
export type AuditFromWebview =
  | { type: 'ready' }
  /** `seq` counts the webview's changes of options, from 1 after each `ready`. */
  | { type: 'setOptions'; options: AuditViewOptions; seq: number }
  | { type: 'rows'; version: number; start: number; count: number }
  | { type: 'detail'; seq: number }
  | { type: 'toggleGroup'; trace: string }
  | { type: 'expandAll'; expanded: boolean }
  | { type: 'verify' }
  /** `encrypt`: JSON Lines, encrypted (MCP draft §3). */
  | { type: 'export'; format: ExportFormatName; encrypt?: boolean };

/** The most items one `rows` answer carries. */
export const PAGE_SIZE = 100;

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';
const optionalDate = (value: unknown) =>
  value === undefined || (typeof value === 'string' && !Number.isNaN(Date.parse(value)));
const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

export function isAuditViewFilter(value: unknown): value is AuditViewFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const f = value as Record<string, unknown>;
  const types =
    f.types === undefined ||
    (Array.isArray(f.types) && f.types.every((t) => typeof t === 'string'));
  return (
    types &&
    optionalString(f.serverId) &&
    optionalString(f.toolName) &&
    optionalString(f.result) &&
    optionalString(f.traceId) &&
    optionalDate(f.since) &&
    optionalDate(f.until)
  );
}

export function isAuditViewOptions(value: unknown): value is AuditViewOptions {
  if (typeof value !== 'object' || value === null) return false;
  const o = value as Record<string, unknown>;
  return (
    typeof o.groupByTrace === 'boolean' &&
    typeof o.newestFirst === 'boolean' &&
    isAuditViewFilter(o.filter)
  );
}

export function isAuditFromWebview(value: unknown): value is AuditFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'verify':
      return true;
    case 'setOptions':
      return isAuditViewOptions(m.options) && count(m.seq);
    case 'rows':
      return count(m.version) && count(m.start) && count(m.count);
    case 'detail':
      return count(m.seq);
    case 'toggleGroup':
      return typeof m.trace === 'string';
    case 'expandAll':
      return typeof m.expanded === 'boolean';
    case 'export':
      return (
        (m.format === 'jsonl' || m.format === 'csv') &&
        (m.encrypt === undefined || typeof m.encrypt === 'boolean')
      );
    default:
      return false;
  }
}

// ── Window arithmetic ────────────────────────────────────────────────────────────────────────────

/** Browsers cap an element's height (Chromium near 33.5 M px); beyond this the scroll is scaled. */
export const MAX_SCROLL_HEIGHT = 8_000_000;

export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  total: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  maxScrollHeight?: number;
}

export interface RowWindow {
  /** Rows [start, end) are rendered. */
  start: number;
  end: number;
  /** The first row at least partly visible. */
  first: number;
  /** Where row `start` is drawn, in px from the top of the scrolled content. */
  top: number;
  /** The height of the scrolled content. */
  scrollHeight: number;
}

export function scrollHeightFor(
  total: number,
  rowHeight: number,
  maxScrollHeight = MAX_SCROLL_HEIGHT,
): number {
  return Math.min(total * rowHeight, maxScrollHeight);
}

interface Scale {
  height: number;
  maxScroll: number;
  realMax: number;
}

function scale(
  viewportHeight: number,
  rowHeight: number,
  total: number,
  maxScrollHeight?: number,
): Scale {
  const height = scrollHeightFor(total, rowHeight, maxScrollHeight);
  return {
    height,
    maxScroll: Math.max(0, height - viewportHeight),
    realMax: Math.max(0, total * rowHeight - viewportHeight),
  };
}

/**
 * The rows to render for a scroll position. Up to MAX_SCROLL_HEIGHT the content is one row height per
 * row; past it, scroll positions map linearly onto the rows, so any number of rows stays reachable.
 */
export function rowWindow(input: WindowInput): RowWindow {
  const { viewportHeight, rowHeight, total, overscan } = input;
  const s = scale(viewportHeight, rowHeight, total, input.maxScrollHeight);
  if (total === 0) return { start: 0, end: 0, first: 0, top: 0, scrollHeight: 0 };
  const scrollTop = Math.min(Math.max(0, input.scrollTop), s.maxScroll);
  const real = s.maxScroll > 0 ? scrollTop * (s.realMax / s.maxScroll) : 0;
  const first = Math.min(total - 1, Math.floor(real / rowHeight + 1e-6));
  const visible = Math.ceil(viewportHeight / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(total, first + visible + overscan);
  const firstTop = scrollTop - (real - first * rowHeight);
  return { start, end, first, top: firstTop - (first - start) * rowHeight, scrollHeight: s.height };
}

/** The scroll position that shows row `index` at the top (`start`) or the bottom (`end`) of the viewport. */
export function scrollTopFor(
  index: number,
  align: 'start' | 'end',
  input: Omit<WindowInput, 'scrollTop' | 'overscan'>,
): number {
  const { viewportHeight, rowHeight, total } = input;
  const s = scale(viewportHeight, rowHeight, total, input.maxScrollHeight);
  const wanted = align === 'start' ? index * rowHeight : (index + 1) * rowHeight - viewportHeight;
  const real = Math.min(Math.max(0, wanted), s.realMax);
  return s.realMax > 0 ? real * (s.maxScroll / s.realMax) : 0;
}

/** The page numbers (of PAGE_SIZE items) that cover items [start, end). */
export function pagesCovering(start: number, end: number, pageSize = PAGE_SIZE): number[] {
  const pages: number[] = [];
  if (end <= start) return pages;
  for (let page = Math.floor(start / pageSize); page * pageSize < end; page++) pages.push(page);
  return pages;
}
