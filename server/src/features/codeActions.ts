import { CodeAction, CodeActionKind, Diagnostic, TextEdit } from 'vscode-languageserver/node';
import { MOVE_SECRET_COMMAND, MoveSecretArgs } from '@shared/lspMessages';

interface ActionData {
  suggestion?: string;
  missingKey?: string;
  secretName?: string;
}

function lineEnd(text: string, line: number): number {
  return (text.split(/\r?\n/)[line] ?? '').length;
}

/** Quick fixes for our diagnostics: "did you mean", add a missing key, move a secret to SecretStorage. */
export function codeActions(uri: string, text: string, diagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.source !== 'mgp') continue;
    const data = (diagnostic.data ?? {}) as ActionData;
    const code = String(diagnostic.code ?? '');
    if (data.suggestion) {
      const quoted =
        code === 'schema/additionalProperties' ? data.suggestion : `"${data.suggestion}"`;
      actions.push({
        title: `Change to ${quoted}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [uri]: [TextEdit.replace(diagnostic.range, quoted)] } },
      });
    }
    if (data.missingKey) {
      // Insert right after the table header line, where the key belongs.
      const line = diagnostic.range.start.line;
      const position = { line, character: lineEnd(text, line) };
      actions.push({
        title: `Add the missing key "${data.missingKey}"`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [uri]: [TextEdit.insert(position, `\n${data.missingKey} = ""`)] } },
      });
    }
    if (data.secretName && code === 'semantic/literal-secret') {
      const args: MoveSecretArgs = { uri, range: diagnostic.range, secretName: data.secretName };
      actions.push({
        title: `Move this secret to secret storage as \${secret:${data.secretName}}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        command: {
          title: 'Move secret to secret storage',
          command: MOVE_SECRET_COMMAND,
          arguments: [args],
        },
      });
    }
  }
  return actions;
}
