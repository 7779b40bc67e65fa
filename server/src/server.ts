import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  createConnection,
  Diagnostic,
  DiagnosticSeverity,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { MGP_KERNEL_VERSION } from '../../shared/src/version';
import { checkConfigDocument } from './check/checkDocument';
import type { CheckDiagnostic } from './check/syntax';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

const SEVERITY: Record<CheckDiagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

function baseNameOf(uri: string): string {
  return basename(uri.startsWith('file:') ? fileURLToPath(uri) : uri);
}

function validate(document: TextDocument): void {
  const diagnostics: Diagnostic[] = checkConfigDocument(baseNameOf(document.uri), document.getText()).map((d) => ({
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'mgp',
    message: d.message,
  }));
  void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
}

connection.onInitialize(() => ({
  capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
  serverInfo: { name: 'mgp-config-language-server', version: MGP_KERNEL_VERSION },
}));

documents.onDidChangeContent(({ document }) => validate(document));
documents.onDidClose(({ document }) => void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] }));
documents.listen(connection);
connection.listen();
