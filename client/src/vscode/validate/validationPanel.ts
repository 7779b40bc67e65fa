/**
 * "Validation: <server>": one page per server with its validation (MGP §17.8) as it runs, each check
 * with the sections it cites as links, what was expected and what came for a FAIL, what to do, and
 * Re-run; the result line and tier when the run ends.
 */
import * as vscode from 'vscode';
import {
  isValidationFromWebview,
  type ValidationFromWebview,
  type ValidationToWebview,
} from '@shared/validationMessages';
import { OpenPanels, WebviewPanel } from '../common/webviewPanel';
import { openSpecSection } from './specDocuments';
import type { ValidationRuns } from './validationRuns';

export interface ValidationPanelDeps {
  extension: vscode.ExtensionContext;
  runs: ValidationRuns;
  /** Starts a run as the command does: the start gate first, a yes for dangerous tools. */
  run(serverId: string, allowDangerous: boolean): Promise<void>;
}

export class ValidationPanel extends WebviewPanel<ValidationToWebview, ValidationFromWebview> {
  static readonly viewType = 'mgp.validation';
  private static readonly open = new OpenPanels<ValidationPanel>();
  private readonly scheduleRefresh = this.coalesce(50, () => this.refresh());

  static show(deps: ValidationPanelDeps, serverId: string): ValidationPanel {
    return ValidationPanel.open.show(serverId, () => new ValidationPanel(deps, serverId));
  }

  static disposeAll(): void {
    ValidationPanel.open.disposeAll();
  }

  private constructor(
    private readonly deps: ValidationPanelDeps,
    private readonly serverId: string,
  ) {
    super(
      deps.extension.extensionUri,
      { viewType: ValidationPanel.viewType, title: `Validation: ${serverId}` },
      {
        title: `Validation: ${serverId}`,
        script: 'dist/validation.js',
        stylesheet: 'validation.css',
      },
      isValidationFromWebview,
    );
    this.disposables.push(deps.runs.onDidChange((id) => id === serverId && this.scheduleRefresh()));
  }

  protected async receive(message: ValidationFromWebview): Promise<void> {
    switch (message.type) {
      case 'ready':
        return this.refresh();
      case 'rerun':
        return this.deps.run(this.serverId, message.allowDangerous);
      case 'openSection':
        return openSpecSection(this.deps.extension.extensionUri, message.spec, message.anchor);
      case 'showServer':
        await vscode.commands.executeCommand('mgp.showServerDetail', this.serverId);
        return;
    }
  }

  private refresh(): void {
    this.post({ type: 'report', view: this.deps.runs.view(this.serverId) });
  }
}
