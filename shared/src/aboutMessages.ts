/** Messages between the About panel (media/src/about) and its host (client/src/vscode/about/aboutPanel.ts). */

export interface ConfigFileSummary {
  /** Path shown to the user: relative to the workspace folder when inside it, `~/…` when in home. */
  displayPath: string;
  format: 'mgp' | 'openfang';
  serverCount: number;
  error?: string;
}

export interface ServerSummary {
  id: string;
  transport: string;
  /** The command line or URL, with secrets left as `${secret:…}` references. */
  target: string;
  source: string;
  shadowedBy?: string;
}

/** What a running server sent as `instructions` at initialize (MCP 2025-11-25): its words, as text. */
export interface ServerInstructions {
  serverId: string;
  /** Bounded, control characters made visible; never rendered as markup. */
  text: string;
}

export interface KernelStatus {
  version: string;
  vscodeVersion: string;
  extensionHostNode: string;
  workspaceTrusted: boolean;
  languageServer: 'starting' | 'running' | 'stopped' | 'failed';
  configFiles: ConfigFileSummary[];
  servers: ServerSummary[];
  /** The instructions of each connected server that sent any. */
  instructions: ServerInstructions[];
}

/** Host → webview. */
export type AboutToWebview = { type: 'status'; status: KernelStatus };

/** Webview → host. */
export type AboutFromWebview =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'showLog' }
  | { type: 'openConfig'; displayPath: string };

export function isAboutFromWebview(value: unknown): value is AboutFromWebview {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; displayPath?: unknown };
  switch (message.type) {
    case 'ready':
    case 'refresh':
    case 'showLog':
      return true;
    case 'openConfig':
      return typeof message.displayPath === 'string';
    default:
      return false;
  }
}
