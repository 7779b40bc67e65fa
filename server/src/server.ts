import { fileURLToPath } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionKind,
  CodeLensRefreshRequest,
  createConnection,
  Diagnostic,
  DiagnosticSeverity,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { KernelStateNotification, KernelStateParams } from '@shared/lspMessages';
import { MGP_KERNEL_VERSION } from '@shared/version';
import { Analysis, AnalysisCache } from './analysis';
import type { CheckDiagnostic } from '@shared/configCheck/diagnostic';
import { codeActions } from './features/codeActions';
import { serverLenses } from './features/codeLens';
import { completions } from './features/completion';
import { hover } from './features/hover';
import { liveDiagnostics } from './features/liveDiagnostics';
import { documentSymbols } from './features/symbols';
import { serverIdInText } from './cursor';
import { isTable } from '@shared/configCheck/semantic/context';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const cache = new AnalysisCache();
let kernelState: KernelStateParams = { servers: [], shadowed: [] };

const SEVERITY: Record<CheckDiagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

function pathOf(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

function analysisOf(document: TextDocument): Analysis {
  return cache.get(document.uri, pathOf(document.uri), document.version, document.getText());
}

function toLsp(d: CheckDiagnostic): Diagnostic {
  return {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: 'mgp',
    message: d.message,
    ...(d.data ? { data: d.data } : {}),
  };
}

const VALIDATION_DELAY_MS = 120;
const pending = new Map<string, NodeJS.Timeout>();

/** Checks after a short pause in typing, so a burst of edits costs one pass. */
function scheduleValidation(document: TextDocument): void {
  clearTimeout(pending.get(document.uri));
  pending.set(
    document.uri,
    setTimeout(() => {
      pending.delete(document.uri);
      const current = documents.get(document.uri);
      if (current) validate(current);
    }, VALIDATION_DELAY_MS),
  );
}

function validate(document: TextDocument): void {
  const analysis = analysisOf(document);
  const all = [
    ...analysis.diagnostics,
    ...liveDiagnostics(analysis, pathOf(document.uri), kernelState),
  ];
  void connection.sendDiagnostics({
    uri: document.uri,
    version: document.version,
    diagnostics: all.map(toLsp),
  });
}

function serverIds(): string[] {
  const ids = new Set(kernelState.servers.map((s) => s.id));
  for (const document of documents.all()) {
    const value = analysisOf(document).value;
    for (const list of [value?.servers, value?.mcp_servers]) {
      if (Array.isArray(list))
        for (const table of list)
          if (isTable(table) && typeof (table.id ?? table.name) === 'string')
            ids.add(String(table.id ?? table.name));
    }
  }
  return [...ids];
}

/** Whether the editor re-asks for code lenses when told to (LSP 3.16 workspace/codeLens/refresh). */
let codeLensRefresh = false;

connection.onInitialize(({ capabilities: client }) => {
  codeLensRefresh = client.workspace?.codeLens?.refreshSupport === true;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['[', '.', '"', '=', ' ', ','] },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      documentSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
    },
    serverInfo: { name: 'mgp-config-language-server', version: MGP_KERNEL_VERSION },
  };
});

documents.onDidOpen(({ document }) => validate(document));
documents.onDidChangeContent(({ document }) => scheduleValidation(document));
documents.onDidClose(({ document }) => {
  clearTimeout(pending.get(document.uri));
  pending.delete(document.uri);
  cache.delete(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});

connection.onNotification(KernelStateNotification, (state) => {
  kernelState = state;
  documents.all().forEach(validate);
  // The lenses show live state: ask the editor for them again.
  if (codeLensRefresh)
    void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
});

connection.onCompletion(({ textDocument, position }) => {
  const document = documents.get(textDocument.uri);
  if (!document) return [];
  const analysis = analysisOf(document);
  if (!analysis.format) return [];
  const present = (tablePath: (string | number)[]) => {
    let node: unknown = analysis.value;
    for (const part of tablePath)
      node =
        isTable(node) || Array.isArray(node) ? (node as Record<string, unknown>)[part] : undefined;
    return new Set(isTable(node) ? Object.keys(node) : []);
  };
  const serverIdAt = (tablePath: (string | number)[]) =>
    serverIdInText(document.getText(), tablePath);
  return completions(
    {
      format: analysis.format,
      text: document.getText(),
      line: position.line,
      character: position.character,
      serverIds: serverIds(),
      state: kernelState,
    },
    present,
    serverIdAt,
  );
});

connection.onHover(({ textDocument, position }) => {
  const document = documents.get(textDocument.uri);
  return document ? hover(analysisOf(document), position, kernelState, pathOf(document.uri)) : null;
});

connection.onCodeAction(({ textDocument, context }) => {
  const document = documents.get(textDocument.uri);
  return document ? codeActions(document.uri, document.getText(), context.diagnostics) : [];
});

connection.onDocumentSymbol(({ textDocument }) => {
  const document = documents.get(textDocument.uri);
  return document ? documentSymbols(analysisOf(document)) : [];
});

connection.onCodeLens(({ textDocument }) => {
  const document = documents.get(textDocument.uri);
  return document ? serverLenses(analysisOf(document), kernelState, pathOf(document.uri)) : [];
});

documents.listen(connection);
connection.listen();
