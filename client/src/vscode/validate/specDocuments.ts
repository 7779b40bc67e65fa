/**
 * Opens a section a validation check cites: MGP and MCPL in the texts bundled with the extension,
 * read-only, at the section's heading; MCP's pages on the published specification.
 */
import * as vscode from 'vscode';
import { headingLine, MCP_PAGES, MCP_SPEC_URL, type SpecName } from '@shared/specSections';

const BUNDLED: Record<Exclude<SpecName, 'mcp'>, string> = {
  mgp: 'media/specs/mgp-0.5.2-draft.md',
  mcpl: 'media/specs/mcpl-0.4.1-draft.md',
};

export async function openSpecSection(
  extensionUri: vscode.Uri,
  spec: SpecName,
  anchor: string,
): Promise<void> {
  if (spec === 'mcp') {
    await vscode.env.openExternal(vscode.Uri.parse(`${MCP_SPEC_URL}${MCP_PAGES[anchor]}`));
    return;
  }
  const uri = vscode.Uri.joinPath(extensionUri, BUNDLED[spec]);
  const document = await vscode.workspace.openTextDocument(uri);
  const line = headingLine(document.getText(), anchor) ?? 0;
  const at = new vscode.Range(line, 0, line, 0);
  const editor = await vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.Beside,
    selection: at,
    preview: true,
  });
  editor.revealRange(at, vscode.TextEditorRevealType.AtTop);
  // The text ships with the extension: it is read, not edited.
  await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
}
