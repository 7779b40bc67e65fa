/**
 * The Audit Trail panel's state on the host, without VS Code: the index of the log, the current
 * filter and grouping, the display list and its version. The panel class only carries messages.
 */
import type { AuditItem, AuditViewOptions, AuditViewState } from '@shared/auditMessages';
import { PAGE_SIZE } from '@shared/auditMessages';
import { readRecordAt, type AuditRecord } from '../../kernel';
import { AuditIndex } from './auditIndex';
import { AuditScanner } from './auditScanner';
import type { AuditSource } from './auditSource';
import {
  appendToFlat,
  buildDisplay,
  commonPrefix,
  DisplayList,
  displayItems,
  Expansion,
} from './auditView';

export const DEFAULT_OPTIONS: AuditViewOptions = {
  filter: {},
  groupByTrace: false,
  newestFirst: true,
};

export class AuditTrailModel {
  readonly index = new AuditIndex();
  private readonly scanner: AuditScanner;
  private options: AuditViewOptions = DEFAULT_OPTIONS;
  private expansion: { all: boolean; exceptions: Set<string> } = {
    all: false,
    exceptions: new Set(),
  };
  private display: DisplayList = { items: new Int32Array(0), matched: new Uint32Array(0) };
  /** Rows of the index the display list has seen. */
  private covered = 0;
  private version = 0;

  constructor(
    readonly source: AuditSource,
    onProgress?: (records: number) => void,
  ) {
    this.scanner = new AuditScanner(source.directory, this.index, {
      maxSeq: () => source.maxSeq(),
      onProgress,
    });
  }

  get currentOptions(): AuditViewOptions {
    return this.options;
  }

  /** Indexes the whole log (first call) and builds the view. */
  async load(): Promise<AuditViewState> {
    await this.scanner.scan();
    return this.rebuild();
  }

  /** Indexes what was appended; the new view when there was something, else undefined. */
  async refresh(): Promise<AuditViewState | undefined> {
    const added = await this.scanner.scan();
    if (added === 0) return undefined;
    const before = this.display;
    const { groupByTrace, newestFirst, filter } = this.options;
    if (groupByTrace) {
      this.display = buildDisplay(this.index, this.options, this.expansion);
    } else {
      this.display = appendToFlat(this.index, this.display, filter, this.covered, newestFirst);
    }
    this.covered = this.index.length;
    if (groupByTrace) return this.state(0); // a group may have grown anywhere
    // Oldest first, the rows fetched before stay where they were; newest first, they move down.
    const grown = this.display.items.length - before.items.length;
    return newestFirst ? this.state(0, grown) : this.state(before.items.length);
  }

  setOptions(options: AuditViewOptions): AuditViewState {
    this.options = {
      filter: { ...options.filter },
      groupByTrace: options.groupByTrace,
      newestFirst: options.newestFirst,
    };
    return this.rebuild();
  }

  /** Opens or closes one trace's group. */
  toggle(trace: string): AuditViewState {
    if (!this.expansion.exceptions.delete(trace)) this.expansion.exceptions.add(trace);
    return this.rebuildKeeping();
  }

  expandAll(expanded: boolean): AuditViewState {
    this.expansion = { all: expanded, exceptions: new Set() };
    return this.rebuildKeeping();
  }

  /** Items of the current view; undefined when the webview asked about an older version. */
  rows(version: number, start: number, count: number): AuditItem[] | undefined {
    if (version !== this.version) return undefined;
    return displayItems(
      this.index,
      this.display,
      start,
      Math.min(count, PAGE_SIZE),
      this.expansion as Expansion,
    );
  }

  /** The whole record of `seq`, read back from the log file. */
  async record(seq: number): Promise<AuditRecord | undefined> {
    const row = this.index.find(seq);
    if (row === -1) return undefined;
    return readRecordAt(this.source.directory, this.index.position(row), seq);
  }

  private rebuild(): AuditViewState {
    this.display = buildDisplay(this.index, this.options, this.expansion);
    this.covered = this.index.length;
    return this.state(0);
  }

  /** A rebuild after opening or closing groups: the items before the first change stay. */
  private rebuildKeeping(): AuditViewState {
    const before = this.display.items;
    this.display = buildDisplay(this.index, this.options, this.expansion);
    this.covered = this.index.length;
    // A header's own item changes too (its arrow), so the stable part ends before it.
    return this.state(Math.max(0, commonPrefix(before, this.display.items) - 1));
  }

  state(stable = 0, prepended = 0): AuditViewState {
    this.version++;
    return {
      version: this.version,
      total: this.display.items.length,
      stable,
      prepended,
      records: this.index.length,
      matched: this.display.matched.length,
      groups: this.display.groups?.trace.length ?? 0,
      facets: this.index.facets(),
      options: this.options,
      indexBytes: this.index.bytes,
    };
  }
}
