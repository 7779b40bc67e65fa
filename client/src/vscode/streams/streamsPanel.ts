import * as vscode from 'vscode';
import type { StreamsFromWebview, StreamsToWebview } from '@shared/streamMessages';
import { isStreamsFromWebview } from '@shared/streamMessages';
import type { StreamEvents } from '../../kernel';
import type { EditorHost } from '../host/editorHost';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { StreamBatcher } from '../common/streamBatcher';
import { streamView } from '../runTool/toolViews';
import { jobEventView } from '../runTool/draftViews';

/** Characters of a stream's text the panel holds (its tail); "Open the whole text" shows the rest. */
export const STREAM_TEXT_KEEP = 200_000;

/**
 * "Streaming Output": every stream of the kernel (MGP §12) in its own tab, live. Stream events are
 * batched per frame (StreamBatcher) before they reach the webview, which appends each batch once per
 * animation frame and keeps only the tail of huge outputs.
 */
export class StreamsPanel extends WebviewPanel<StreamsToWebview, StreamsFromWebview> {
  static readonly viewType = 'mgp.streams';
  private static readonly open = new OpenPanels<StreamsPanel>();
  private readonly batcher: StreamBatcher;

  static show(extension: vscode.ExtensionContext, host: EditorHost, focus?: string): StreamsPanel {
    return StreamsPanel.open.show(
      '',
      () => new StreamsPanel(extension, host, focus),
      (current) => {
        current.reveal(true);
        if (focus) current.post({ type: 'focus', id: focus });
      },
    );
  }

  static disposeCurrent(): void {
    StreamsPanel.open.disposeAll();
  }

  private constructor(
    extension: vscode.ExtensionContext,
    private readonly host: EditorHost,
    private focus: string | undefined,
  ) {
    super(
      extension.extensionUri,
      {
        viewType: StreamsPanel.viewType,
        title: 'Streaming Output',
        column: { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        retainContextWhenHidden: true,
      },
      { title: 'Streaming Output', script: 'dist/streams.js', stylesheet: 'streams.css' },
      isStreamsFromWebview,
    );
    this.batcher = new StreamBatcher((updates) => this.post({ type: 'batch', updates }));
    const streams = host.kernel.streams;
    const handlers = {
      started: (s: StreamEvents['started'][0]) =>
        this.batcher.started(streamView(s, STREAM_TEXT_KEEP)),
      text: (e: StreamEvents['text'][0]) => this.batcher.text(e.id, e.appended, e.chunks),
      progress: (e: StreamEvents['progress'][0]) => this.batcher.setProgress(e.id, e.progress),
      jobEvent: (e: StreamEvents['jobEvent'][0]) =>
        this.batcher.jobEvent(e.id, jobEventView(e.event)),
      // The text is in the webview already: the end carries the state, not the text again.
      ended: (s: StreamEvents['ended'][0]) => this.batcher.ended(streamView(s, 0)),
    };
    streams.on('started', handlers.started);
    streams.on('text', handlers.text);
    streams.on('progress', handlers.progress);
    streams.on('jobEvent', handlers.jobEvent);
    streams.on('ended', handlers.ended);
    this.disposables.push(this.batcher, {
      dispose: () => {
        streams.off('started', handlers.started);
        streams.off('text', handlers.text);
        streams.off('progress', handlers.progress);
        streams.off('jobEvent', handlers.jobEvent);
        streams.off('ended', handlers.ended);
      },
    });
  }

  protected async receive(message: StreamsFromWebview): Promise<void> {
    const streams = this.host.kernel.streams;
    switch (message.type) {
      case 'ready':
        // Anything batched before now is in the list: drop it rather than send it twice.
        this.batcher.discard();
        this.post({
          type: 'streams',
          streams: streams.list().map((s) => streamView(s, STREAM_TEXT_KEEP)),
          ...(this.focus ? { focus: this.focus } : {}),
        });
        this.focus = undefined;
        return;
      case 'cancel':
        await streams.cancel(message.id);
        return;
      case 'openText': {
        const stream = streams.get(message.id);
        if (!stream) {
          void vscode.window.showInformationMessage('MGP: that stream is no longer kept.');
          return;
        }
        const document = await vscode.workspace.openTextDocument({
          content: stream.snapshot().text,
          language: 'plaintext',
        });
        await vscode.window.showTextDocument(document, {
          preview: true,
          viewColumn: vscode.ViewColumn.Active,
        });
        return;
      }
    }
  }
}
