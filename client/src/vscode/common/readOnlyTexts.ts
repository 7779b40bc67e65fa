/**
 * Texts shown as read-only documents under one scheme, made when they are asked for and kept for
 * their tab only (the last few): an event's detail, the whole of a sampling request.
 */
import * as vscode from 'vscode';

export class ReadOnlyTexts implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private next = 0;

  constructor(
    private readonly scheme: string,
    private readonly kept: number,
    private readonly gone: string,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? this.gone;
  }

  /** Opens `text` as `name` (a file name: its extension picks the language). */
  async show(name: string, text: string, options: vscode.TextDocumentShowOptions): Promise<void> {
    const key = String(++this.next);
    this.texts.set(key, text);
    if (this.texts.size > this.kept) this.texts.delete(this.texts.keys().next().value as string);
    const path = `/${name.replace(/[/\\]/g, '∕')}`;
    const uri = vscode.Uri.from({ scheme: this.scheme, path, query: key });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), options);
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
