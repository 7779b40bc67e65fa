/** The Channels view (MCPL §14), its panels and commands. */
import * as vscode from 'vscode';
import type { Kernel } from '../../kernel/kernel';
import type { ChannelView } from '../../kernel/mcpl/channels';
import { ChannelPanel } from './channelPanel';
import { ChannelsView } from './channelsView';

/** The channel a command was run on: the view's row, or one picked from all. */
async function channelOf(kernel: Kernel, node?: ChannelView): Promise<ChannelView | undefined> {
  if (node && 'descriptor' in node) return node;
  const all = kernel.mcpl.channels.list();
  if (!all.length) {
    void vscode.window.showInformationMessage('No MCPL server has registered a channel.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    all.map((view) => ({
      label: view.descriptor.id,
      description: view.serverId,
      detail: view.descriptor.label,
      view,
    })),
    { title: 'Open a channel', placeHolder: 'The channels of the connected MCPL servers' },
  );
  return picked?.view;
}

export function registerChannels(kernel: Kernel, extensionUri: vscode.Uri): vscode.Disposable[] {
  const view = new ChannelsView(kernel.mcpl.channels);
  return [
    view,
    vscode.window.registerTreeDataProvider('mgp.channels', view),
    vscode.commands.registerCommand('mgp.openChannel', async (node?: ChannelView) => {
      const channel = await channelOf(kernel, node);
      if (channel)
        ChannelPanel.show(
          extensionUri,
          kernel.mcpl.channels,
          channel.serverId,
          channel.descriptor.id,
        );
    }),
  ];
}
