import * as vscode from 'vscode';

/** One LogOutputChannel per server ("MGP: <id>"): its stderr, log notifications and transitions. */
export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  channel(serverId: string): vscode.LogOutputChannel {
    let channel = this.channels.get(serverId);
    if (!channel)
      this.channels.set(
        serverId,
        (channel = vscode.window.createOutputChannel(`MGP: ${serverId}`, { log: true })),
      );
    return channel;
  }

  append(serverId: string, level: string, message: string): void {
    const channel = this.channel(serverId);
    switch (level) {
      case 'error':
      case 'critical':
      case 'alert':
      case 'emergency':
        channel.error(message);
        break;
      case 'warning':
        channel.warn(message);
        break;
      case 'debug':
        channel.debug(message);
        break;
      case 'stderr':
        channel.info(`[stderr] ${message}`);
        break;
      default:
        channel.info(message);
    }
  }

  /** Whether the server's channel is at the Trace level: only then is the protocol trace produced. */
  tracing(serverId: string): boolean {
    return this.channels.get(serverId)?.logLevel === vscode.LogLevel.Trace;
  }

  /** The protocol trace: shown when the channel's level is Trace. */
  trace(serverId: string, message: string): void {
    this.channel(serverId).trace(message);
  }

  show(serverId: string): void {
    this.channel(serverId).show(true);
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.dispose();
  }
}
