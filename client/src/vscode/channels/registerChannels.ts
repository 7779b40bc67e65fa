/** The Channels view (MCPL §14), its panels and commands. */
import * as vscode from 'vscode';
import { ChannelAgents, type ChannelView, type Kernel } from '../../kernel';
import { VscodeChatModel } from '../languageModels/lmChatModel';
import { ChannelPanel } from './channelPanel';
import { ChannelsView } from './channelsView';
import type { EditorHost } from '../host/editorHost';

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

/** The chat model that answers in the channel: picked from VS Code's language models. */
async function pickModel(channel: ChannelView): Promise<VscodeChatModel | undefined> {
  const models = await vscode.lm.selectChatModels();
  if (!models.length) {
    void vscode.window.showWarningMessage(
      'No language model is available: set mgp.models.openaiCompatible.url or install a model provider.',
    );
    return undefined;
  }
  const picked =
    models.length === 1
      ? { model: models[0] }
      : await vscode.window.showQuickPick(
          models.map((model) => ({ label: model.name, description: model.vendor, model })),
          {
            title: `Attach @mgp to ${channel.descriptor.id}`,
            placeHolder: 'The model that answers what is said in the channel',
          },
        );
  return picked
    ? new VscodeChatModel(picked.model, `@mgp answers in ${channel.descriptor.id} for you.`)
    : undefined;
}

/** The Channels view (MCPL §14), a panel per channel, and @mgp attached to a channel. */
export function registerChannels(
  context: vscode.ExtensionContext,
  host: EditorHost,
): vscode.Disposable[] {
  const kernel = host.kernel;
  const extensionUri = context.extensionUri;
  const view = new ChannelsView(kernel.mcpl.channels);
  const agents = new ChannelAgents({
    kernel,
    channels: kernel.mcpl.channels,
    contextHooks: kernel.mcpl.contextHooks,
    audit: kernel.mcpl.audit,
  });
  return [
    view,
    { dispose: () => agents.dispose() },
    vscode.commands.registerCommand('mgp.attachAgentToChannel', async (node?: ChannelView) => {
      const channel = await channelOf(kernel, node);
      const model = channel && (await pickModel(channel));
      if (!channel || !model) return;
      agents.attach(channel.serverId, channel.descriptor.id, model);
      void vscode.window.showInformationMessage(
        `@mgp answers in ${channel.descriptor.id} on ${model.label} until you detach it.`,
      );
    }),
    vscode.commands.registerCommand('mgp.detachAgentFromChannel', async (node?: ChannelView) => {
      const channel = await channelOf(kernel, node);
      if (channel) agents.detach(channel.serverId, channel.descriptor.id);
    }),
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
