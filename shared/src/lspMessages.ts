/**
 * Messages between the extension (client) and the config language server beyond standard LSP.
 * Method names are `mgp/verbNoun`; the direction is in each comment.
 */
import { NotificationType } from 'vscode-languageserver-protocol';

export interface LiveServerState {
  id: string;
  /** The config file that declares this server (absolute path). */
  file: string;
  /** Lifecycle state (MGP §11.2): registered, connecting, connected, draining, disconnected, error, restarting. */
  state: string;
  /** Why it failed to start or stopped, when it did. */
  error?: string;
  toolCount?: number;
  /** MCPL feature sets the connected server declares (MCPL §6.1), when it speaks MCPL. */
  featureSets?: { name: string; description?: string }[];
}

export interface ShadowedServerInfo {
  id: string;
  /** The farther file whose definition is not used. */
  file: string;
  /** The nearer file whose definition wins. */
  winnerFile: string;
  winnerLine: number;
}

export interface KernelStateParams {
  servers: LiveServerState[];
  shadowed: ShadowedServerInfo[];
}

/** Client → server: the kernel's live view of the configured servers, sent on every change. */
export const KernelStateNotification = new NotificationType<KernelStateParams>(
  'mgp/updateKernelState',
);

/** The client command a "move secret to secret storage" code action runs (arguments: MoveSecretArgs). */
export const MOVE_SECRET_COMMAND = 'mgp.moveSecretToStorage';

export interface MoveSecretArgs {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  secretName: string;
}
