import { createWriteStream } from 'node:fs';
import * as vscode from 'vscode';
import type {
  AuditFromWebview,
  AuditToWebview,
  AuditViewState,
  ExportFormatName,
  VerifyState,
} from '@shared/auditMessages';
import { isAuditFromWebview } from '@shared/auditMessages';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import type { AuditSource } from './auditSource';
import { AuditTrailModel } from './auditTrailModel';
import { toAuditFilter } from './auditView';
import { encryptedExport } from './traceFiles';

const REFRESH_DELAY_MS = 100;

function verifyState(report: Awaited<ReturnType<AuditSource['verify']>>): VerifyState {
  const at = new Date().toISOString();
  if (report.ok || !report.problem)
    return {
      state: 'verified',
      records: report.records,
      lastSeq: report.lastSeq,
      headHash: report.headHash,
      at,
    };
  const p = report.problem;
  return {
    state: 'broken',
    seq: p.seq,
    kind: p.kind,
    reason: p.reason,
    file: p.file,
    line: p.line,
    at,
  };
}

/** Writes chunks to a file, waiting when the stream asks to; `close` reports any write error. */
function fileWriter(path: string): {
  write(chunk: string): void | Promise<void>;
  close(): Promise<void>;
} {
  const stream = createWriteStream(path, { flags: 'w', mode: 0o600 });
  let failure: Error | undefined;
  stream.on('error', (error) => (failure = error));
  return {
    write: (chunk) => {
      if (failure) throw failure;
      if (!stream.write(chunk)) return new Promise((resolve) => stream.once('drain', resolve));
    },
    close: () =>
      new Promise((resolve, reject) => stream.end(() => (failure ? reject(failure) : resolve()))),
  };
}

/**
 * The Audit Trail: a virtualized table of an audit log (the webview asks for the windows it shows),
 * with filters, grouping by trace, a record's detail, live tail, export and chain verification.
 * One panel per log folder.
 */
export class AuditTrailPanel extends WebviewPanel<AuditToWebview, AuditFromWebview> {
  static readonly viewType = 'mgp.auditTrail';
  private static readonly open = new OpenPanels<AuditTrailPanel>();
  private readonly model: AuditTrailModel;
  private view: AuditViewState | undefined;
  /** The webview's last change of options that the model has taken. */
  private optionsSeq = 0;
  private verification: VerifyState | undefined;
  private readonly refreshLater = this.coalesce(REFRESH_DELAY_MS, () => this.refresh());

  static show(
    extension: vscode.ExtensionContext,
    source: AuditSource,
    traceId?: string,
  ): AuditTrailPanel {
    return AuditTrailPanel.open.show(
      source.directory,
      () => new AuditTrailPanel(extension, source, traceId),
      (open) => {
        open.reveal();
        if (traceId) open.filterTrace(traceId);
      },
    );
  }

  static disposeAll(): void {
    AuditTrailPanel.open.disposeAll();
  }

  private constructor(
    extension: vscode.ExtensionContext,
    private readonly source: AuditSource,
    traceId?: string,
  ) {
    const title = source.info.live ? 'Audit Trail' : `Audit Trail · ${source.info.name}`;
    super(
      extension.extensionUri,
      { viewType: AuditTrailPanel.viewType, title },
      { title, script: 'dist/audit.js', stylesheet: 'audit.css' },
      isAuditFromWebview,
    );
    this.model = new AuditTrailModel(source, (records) => this.post({ type: 'indexing', records }));
    if (traceId)
      this.model.setOptions({
        ...this.model.currentOptions,
        filter: { traceId },
        groupByTrace: false,
      });
    const unsubscribe = source.onChange(() => this.scheduleRefresh());
    this.disposables.push({ dispose: unsubscribe });
    void this.model.load().then(
      (view) => this.show(view),
      (error: unknown) => this.notice('error', `Reading the audit log failed: ${String(error)}`),
    );
    void this.verify();
  }

  private notice(level: 'info' | 'warning' | 'error', text: string): void {
    this.post({ type: 'notice', level, text });
  }

  private show(view: AuditViewState): void {
    this.view = view;
    this.post({ type: 'view', view, optionsSeq: this.optionsSeq });
  }

  private scheduleRefresh(): void {
    if (this.view) this.refreshLater();
  }

  private refresh(): void {
    void this.model.refresh().then(
      (view) => view && this.show(view),
      (error: unknown) =>
        this.notice('error', `Reading new audit records failed: ${String(error)}`),
    );
  }

  private filterTrace(traceId: string): void {
    const view = this.model.setOptions({
      ...this.model.currentOptions,
      filter: { traceId },
      groupByTrace: false,
    });
    if (this.view) this.show(view);
  }

  protected async receive(message: AuditFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.optionsSeq = 0;
        this.post({ type: 'source', source: this.source.info });
        if (this.view) this.show(this.model.state(0));
        else this.post({ type: 'indexing', records: this.model.index.length });
        if (this.verification) this.post({ type: 'verify', verify: this.verification });
        return;
      case 'setOptions':
        this.optionsSeq = message.seq;
        if (this.view) this.show(this.model.setOptions(message.options));
        return;
      case 'rows': {
        const items = this.model.rows(message.version, message.start, message.count);
        if (items)
          this.post({ type: 'rows', version: message.version, start: message.start, items });
        return;
      }
      case 'toggleGroup':
        if (this.view) this.show(this.model.toggle(message.trace));
        return;
      case 'expandAll':
        if (this.view) this.show(this.model.expandAll(message.expanded));
        return;
      case 'detail': {
        const record = await this.model.record(message.seq);
        this.post(
          record
            ? {
                type: 'detail',
                seq: message.seq,
                record: record as unknown as Record<string, unknown>,
              }
            : {
                type: 'detail',
                seq: message.seq,
                problem: 'This record is no longer in the log (its file was removed by retention).',
              },
        );
        return;
      }
      case 'verify':
        return this.verify();
      case 'export':
        return message.encrypt ? this.exportEncrypted() : this.export(message.format);
    }
  }

  private async verify(): Promise<void> {
    if (this.verification?.state === 'running') return;
    this.verification = { state: 'running' };
    this.post({ type: 'verify', verify: this.verification });
    try {
      this.verification = verifyState(await this.source.verify());
    } catch (error) {
      this.verification = {
        state: 'failed',
        reason: error instanceof Error ? error.message : String(error),
        at: new Date().toISOString(),
      };
    }
    this.post({ type: 'verify', verify: this.verification });
  }

  private async export(format: ExportFormatName): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `audit-trail-${new Date().toISOString().slice(0, 10)}.${format}`;
    const target = await vscode.window.showSaveDialog({
      title: `Export the audit trail as ${format === 'csv' ? 'CSV' : 'JSON Lines'} (with the current filter)`,
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { 'JSON Lines': ['jsonl'] },
      saveLabel: 'Export',
    });
    if (!target) return;
    const filter = toAuditFilter(this.model.currentOptions.filter);
    try {
      let count: number;
      if (target.scheme === 'file') {
        const file = fileWriter(target.fsPath);
        count = await this.source
          .export(format, (chunk) => file.write(chunk), filter)
          .finally(() => file.close());
      } else {
        const chunks: string[] = [];
        count = await this.source.export(format, (chunk) => void chunks.push(chunk), filter);
        await vscode.workspace.fs.writeFile(target, Buffer.from(chunks.join(''), 'utf8'));
      }
      this.notice(
        'info',
        `Exported ${count.toLocaleString('en-US')} record${count === 1 ? '' : 's'} to ${vscode.workspace.asRelativePath(target)}`,
      );
    } catch (error) {
      this.notice(
        'error',
        `The export failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** MCP draft §3: the filtered records as JSON Lines, encrypted with the key in secret storage. */
  private async exportEncrypted(): Promise<void> {
    const keys = this.source.keys;
    if (!keys) return this.notice('error', 'There is no secret storage to keep the key in.');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `audit-trail-${new Date().toISOString().slice(0, 10)}.encrypted.json`;
    const target = await vscode.window.showSaveDialog({
      title: 'Export the audit trail encrypted (AES-256-GCM), with the current filter',
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { 'Encrypted audit export': ['json'] },
      saveLabel: 'Export encrypted',
    });
    if (!target) return;
    try {
      const filter = toAuditFilter(this.model.currentOptions.filter);
      const { text, count, madeKey } = await encryptedExport(this.source, keys, filter);
      await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
      this.notice(
        'info',
        `Exported ${count.toLocaleString('en-US')} record${count === 1 ? '' : 's'}, encrypted, to ${vscode.workspace.asRelativePath(target)}${madeKey ? "; its key was made and kept in VS Code's secret storage" : ''}. MGP: Decrypt Audit Export… reads it back.`,
      );
    } catch (error) {
      this.notice(
        'error',
        `The encrypted export failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
