/**
 * Resource templates in the Servers view (under their server's Resources) and how one is opened: each
 * variable asked with completion, the template expanded (RFC 6570) and the resource read into a
 * read-only document.
 */
import type { ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { oneLine, visibleText } from '@shared/untrustedText';
import { expandTemplate, type Kernel, templateVariables } from '../../../kernel';
import { askWithCompletion } from './completionPick';
import { resourceDocumentUri } from './serverContent';

export interface TemplateNode {
  kind: 'template';
  serverId: string;
  template: ResourceTemplate;
}

/** A template row; `serverIcon` is the server's checked icon for it, shown in place of the codicon. */
export function templateItem(
  node: TemplateNode,
  serverIcon?: { light: vscode.Uri; dark: vscode.Uri },
): vscode.TreeItem {
  const { template } = node;
  const item = new vscode.TreeItem(oneLine(template.name), vscode.TreeItemCollapsibleState.None);
  item.id = `template:${node.serverId}:${template.uriTemplate}`;
  item.description = oneLine(template.uriTemplate);
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(visibleText(template.uriTemplate));
  if (template.description) {
    tooltip.appendMarkdown('\n\n---\n\n*Description from the server (untrusted):*\n\n');
    tooltip.appendText(visibleText(template.description));
  }
  item.tooltip = tooltip;
  item.iconPath = serverIcon ?? new vscode.ThemeIcon('symbol-variable');
  item.contextValue = 'mgp.resourceTemplate';
  item.accessibilityInformation = { label: `Resource template ${oneLine(template.name)}` };
  item.command = {
    command: 'mgp.openResourceTemplate',
    title: 'Open Resource Template',
    arguments: [node],
  };
  return item;
}

async function pickTemplate(kernel: Kernel): Promise<TemplateNode | undefined> {
  const picked = await vscode.window.showQuickPick(
    kernel.manager.list().flatMap((s) =>
      s.resourceTemplates.map((template) => ({
        label: oneLine(template.name),
        description: oneLine(template.uriTemplate),
        node: { kind: 'template' as const, serverId: s.id, template },
      })),
    ),
    { placeHolder: 'Resource template to open' },
  );
  return picked?.node;
}

/** Asks each variable of the template (with the server's completions), then opens the resource. */
export async function openResourceTemplate(kernel: Kernel, target?: TemplateNode): Promise<void> {
  const node = target?.kind === 'template' ? target : await pickTemplate(kernel);
  if (!node) return;
  const { serverId, template } = node;
  const variables = templateVariables(template.uriTemplate);
  const chosen: Record<string, string> = {};
  for (const [i, name] of variables.entries()) {
    const value = await askWithCompletion(kernel, {
      serverId,
      ref: { type: 'ref/resource', uri: template.uriTemplate },
      name,
      title: `${oneLine(template.name)}: ${name}${variables.length > 1 ? ` (${i + 1}/${variables.length})` : ''}`,
      required: true,
      chosen: { ...chosen },
    });
    if (value === undefined) return;
    chosen[name] = value;
  }
  const uri = expandTemplate(template.uriTemplate, chosen);
  const document = await vscode.workspace.openTextDocument(
    resourceDocumentUri(serverId, {
      uri,
      name: `${template.name} (${uri.split(/[/?#]/).filter(Boolean).pop() ?? uri})`,
      mimeType: template.mimeType,
    }),
  );
  await vscode.window.showTextDocument(document, {
    preview: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
}
