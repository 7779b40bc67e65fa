import {
  type ConfigProblem,
  type ConfiguredServer,
  describeIsolation,
  describeProgress,
  displayPath,
  type EffectiveSecurity,
  type Isolation,
  type KernelConfig,
  type ListedTool,
  PathContext,
  type RememberedSubscriptions,
  type ServerManager,
  type ServerState,
  serverTarget,
  type SupervisedServer,
  type Switches,
} from '../../kernel';
import * as vscode from 'vscode';
import { markdownInline, oneLine } from '@shared/untrustedText';
import { instructionsHoverMarkdown } from './instructionsHover';
import type { ConfigService } from '../host/configService';
import {
  FeatureSetNode,
  featureSetItem,
  featureSetNodes,
  featureSetsGroupItem,
  FeatureSetSource,
} from './featureSetItems';
import type { HoldReason } from '../host/startGate';
import { TemplateNode, templateItem } from './content/resourceTemplates';
import { type ItemNode, leafItem } from './serverItemRows';
import { groupItem, noticeItem, type NoticeNode, problemItem } from './serverViewRows';
import type { ServerIcons } from '../host/serverIcons';

type Group = 'tools' | 'resources' | 'prompts';

export type ServerNode =
  | {
      kind: 'server';
      server: ConfiguredServer;
      shadowedBy?: ConfiguredServer;
      /** Its config file has errors in this server's table: the last valid settings stand in. */
      kept?: boolean;
    }
  | { kind: 'group'; serverId: string; group: Group }
  | ItemNode
  | FeatureSetNode
  | TemplateNode
  | { kind: 'problem'; problem: ConfigProblem }
  | NoticeNode;

/** Why a server waits, in a few words (the notice above the servers says what to do). */
const HOLD_WORDS: Record<string, string | undefined> = {
  untrusted: 'Restricted Mode',
  unapproved: 'not allowed yet',
};

const STATE_ICONS: Record<ServerState, [string, string?]> = {
  registered: ['circle-outline'],
  connecting: ['loading~spin'],
  connected: ['pass-filled', 'testing.iconPassed'],
  draining: ['debug-pause'],
  disconnected: ['circle-slash'],
  error: ['error', 'problemsErrorIcon.foreground'],
  restarting: ['sync~spin'],
};

/** The Servers view: each configured server with its state, tools, resources and prompts. */
export class ServersView implements vscode.TreeDataProvider<ServerNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly configs: ConfigService,
    private readonly manager: ServerManager,
    private readonly securityOf?: (server: SupervisedServer, tool: ListedTool) => EffectiveSecurity,
    private readonly holdOf?: (server: ConfiguredServer) => HoldReason,
    private readonly mcpl?: FeatureSetSource,
    private readonly switches?: Pick<Switches, 'serverOff' | 'toolOff' | 'onChange'>,
    private readonly resourceSubscriptions?: Pick<
      RememberedSubscriptions,
      'canSubscribe' | 'isSubscribed' | 'onChange'
    >,
    private readonly icons?: ServerIcons,
  ) {
    const refresh = () => this.changed.fire();
    if (mcpl) this.subscriptions.push({ dispose: mcpl.onChange(refresh) });
    if (resourceSubscriptions)
      this.subscriptions.push({ dispose: resourceSubscriptions.onChange(refresh) });
    if (icons) this.subscriptions.push(icons.onDidChange(refresh));
    if (switches) this.subscriptions.push({ dispose: switches.onChange(refresh) });
    this.subscriptions.push(
      configs.onDidChange(refresh),
      vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    );
    manager.bus.on('transition', refresh);
    manager.bus.on('listChanged', refresh);
    manager.bus.on('servers', refresh);
    manager.bus.on('starting', refresh);
    this.subscriptions.push({
      dispose: () =>
        manager.bus
          .off('transition', refresh)
          .off('listChanged', refresh)
          .off('servers', refresh)
          .off('starting', refresh),
    });
  }

  /** What the start gate holds back, said once above the servers, with the way out. */
  private notices(): ServerNode[] {
    const held = this.manager.list().filter((s) => s.heldBack !== undefined);
    const reasons = held.map((s) => this.holdOf?.(s.config));
    const notices: ServerNode[] = [];
    if (reasons.includes('untrusted'))
      notices.push({
        kind: 'notice',
        id: 'restricted',
        label: 'Restricted Mode: trust this workspace to start its servers',
        tooltip:
          "MGP Kernel starts servers from a workspace's config only in a trusted workspace. Click to manage Workspace Trust.",
        icon: 'workspace-untrusted',
        command: 'workbench.trust.manage',
      });
    else if (reasons.includes('unapproved'))
      notices.push({
        kind: 'notice',
        id: 'unapproved',
        label: 'Allow workspace servers to start…',
        tooltip:
          'Servers from this workspace run with your permissions, so each waits until you allow its command line. Click to choose.',
        icon: 'unlock',
        command: 'mgp.allowWorkspaceServers',
      });
    return notices;
  }

  private subscriptionOf(serverId: string, uri: string): ItemNode['subscription'] {
    const subscriptions = this.resourceSubscriptions;
    if (subscriptions?.isSubscribed(serverId, uri)) return 'subscribed';
    return subscriptions?.canSubscribe(serverId) ? 'available' : undefined;
  }

  private live(id: string): SupervisedServer | undefined {
    return this.manager.list().find((s) => s.id === id);
  }

  async getChildren(parent?: ServerNode): Promise<ServerNode[]> {
    if (!parent) {
      const config: KernelConfig = await this.configs.config;
      return [
        ...this.notices(),
        ...config.problems
          .filter((p) => p.severity === 'error')
          .map((problem): ServerNode => ({ kind: 'problem', problem })),
        ...config.servers.map((server): ServerNode => ({
          kind: 'server',
          server,
          kept: keptFrom(config, server),
        })),
        // Servers registered at run time (MGP §15.4) are in no config file.
        ...this.manager
          .list()
          .filter((s) => s.config.origin === 'runtime')
          .map((s): ServerNode => ({ kind: 'server', server: s.config })),
        ...config.shadowed.map(({ server, winner }): ServerNode => ({
          kind: 'server',
          server,
          shadowedBy: winner,
        })),
      ];
    }
    if (parent.kind === 'server') {
      const live = this.live(parent.server.id);
      if (parent.shadowedBy || !live || live.state !== 'connected') return [];
      const groups: ServerNode[] = (['tools', 'resources', 'prompts'] as const).map((group) => ({
        kind: 'group',
        serverId: parent.server.id,
        group,
      }));
      // MCPL §6: a server that speaks MCPL shows the feature sets it declares.
      if (this.mcpl?.server(parent.server.id))
        groups.push({ kind: 'featureSets', serverId: parent.server.id });
      return groups;
    }
    if (parent.kind === 'featureSets')
      return this.mcpl ? featureSetNodes(this.mcpl, parent.serverId) : [];
    if (parent.kind === 'group') {
      const live = this.live(parent.serverId);
      if (!live) return [];
      if (parent.group === 'tools')
        return live.tools.map((t) => ({
          kind: 'item',
          serverId: live.id,
          group: 'tools',
          name: t.name,
          description: t.description,
          security: this.securityOf?.(live, t),
          off: this.switches?.toolOff(live.id, t.name),
          icons: t.icons,
        }));
      if (parent.group === 'resources')
        return [
          ...live.resources.map((r): ServerNode => ({
            kind: 'item',
            serverId: live.id,
            group: 'resources',
            name: r.name,
            description: r.description,
            uri: r.uri,
            subscription: this.subscriptionOf(live.id, r.uri),
            icons: r.icons,
          })),
          ...live.resourceTemplates.map((template): ServerNode => ({
            kind: 'template',
            serverId: live.id,
            template,
          })),
        ];
      return live.prompts.map((p) => ({
        kind: 'item',
        serverId: live.id,
        group: 'prompts',
        name: p.name,
        description: p.description,
        icons: p.icons,
      }));
    }
    return [];
  }

  getTreeItem(node: ServerNode): vscode.TreeItem {
    const paths = this.configs.pathContext();
    switch (node.kind) {
      case 'server':
        return this.serverItem(node, paths);
      case 'group':
        return groupItem(node, this.live(node.serverId), this.switches);
      case 'item':
        return leafItem(node, this.icons?.iconPath(node.icons));
      case 'template':
        return templateItem(node, this.icons?.iconPath(node.template.icons));
      case 'featureSets':
        return featureSetsGroupItem(this.mcpl!, node.serverId);
      case 'featureSet':
        return featureSetItem(node);
      case 'problem':
        return problemItem(node.problem, paths);
      case 'notice':
        return noticeItem(node);
    }
  }

  /** Fires a refresh: after a switch the kernel refused, the boxes show what holds again. */
  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    vscode.Disposable.from(...this.subscriptions).dispose();
    this.changed.dispose();
  }

  private serverItem(
    { server, shadowedBy, kept }: Extract<ServerNode, { kind: 'server' }>,
    paths: PathContext,
  ): vscode.TreeItem {
    const live = this.live(server.id);
    const state: ServerState = shadowedBy ? 'disconnected' : (live?.state ?? 'registered');
    const connected = state === 'connected' && !shadowedBy;
    // A server that worked through a period of its connect timeout (a first `npx -y` downloading).
    const progress = state === 'connecting' ? live?.connecting?.progress : undefined;
    const stateWords = progress ? 'still starting' : state;
    const item = new vscode.TreeItem(
      server.id,
      connected ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    const where = `${displayPath(server.source.file, paths)}:${server.source.line}`;
    item.id = `server:${server.id}:${where}`;
    const [icon, color] = STATE_ICONS[state];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.description = shadowedBy
      ? `overridden by ${displayPath(shadowedBy.source.file, paths)}`
      : connected
        ? `${toolCount(live?.tools.length ?? 0)} · ${server.transport}${isolationMark(live?.isolation)}`
        : live?.heldBack !== undefined && state === 'registered'
          ? `not started · ${HOLD_WORDS[this.holdOf?.(server) ?? 'other'] ?? live.heldBack}`
          : progress
            ? `still starting · ${Math.round(progress.elapsedMs / 1000)} s`
            : `${state}${live?.lastError ? `: ${oneLine(live.lastError)}` : ''}`;
    if (kept) item.description = `${item.description} · config has errors`;
    // The server's own icon (MCP 2025-11-25 serverInfo.icons) while connected; a state icon otherwise.
    const serverIcon = connected
      ? this.icons?.iconPath(live?.liveConnection?.serverInfo?.icons)
      : undefined;
    if (serverIcon) item.iconPath = serverIcon;
    item.contextValue = shadowedBy ? 'mgp.server.shadowed' : `mgp.server.${state}`;
    if (this.switches?.serverOff(server.id) && !shadowedBy) {
      item.iconPath = new vscode.ThemeIcon(
        'circle-slash',
        new vscode.ThemeColor('disabledForeground'),
      );
      item.description = 'turned off';
      item.contextValue = 'mgp.server.off';
    }
    // The organisation's policy, not the person, decides: no switch or restart here can start it.
    const blocked = shadowedBy ? undefined : server.blockedByPolicy;
    if (blocked) {
      item.iconPath = new vscode.ThemeIcon('shield', new vscode.ThemeColor('errorForeground'));
      item.description = `blocked by policy · ${oneLine(blocked.reason)}`;
      item.contextValue = 'mgp.server.blocked';
    }
    // The server asks for a sign-in (MCP Authorization): that, not a restart, is what mends it.
    if (live?.needsSignIn && !shadowedBy) {
      item.iconPath = new vscode.ThemeIcon(
        'account',
        new vscode.ThemeColor('editorWarning.foreground'),
      );
      item.description = 'sign-in required';
      item.contextValue = 'mgp.server.signin';
    }
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${server.id}** — ${blocked ? 'blocked by policy' : stateWords}\n\n`);
    if (blocked)
      tooltip.appendMarkdown(
        `$(shield) **Blocked by the managed policy:** ${markdownInline(blocked.reason)}, in \`${blocked.file}:${blocked.line}\`. It does not start, whoever asks.\n\n`,
      );
    tooltip.appendCodeblock(serverTarget(server), 'shell');
    if (progress)
      tooltip.appendMarkdown(
        `\n$(loading~spin) ${markdownInline(capitalised(describeProgress(progress)))}.\n`,
      );
    if (live?.isolation)
      tooltip.appendMarkdown(
        `\n**Isolation:** ${markdownInline(describeIsolation(live.isolation))}\n`,
      );
    if (live?.lastError && !blocked)
      tooltip.appendMarkdown(`\n**Last error:** ${markdownInline(live.lastError)}\n`);
    if (kept)
      tooltip.appendMarkdown(
        `\n$(warning) Its table in the config has errors: it keeps its last valid settings until they are fixed.\n`,
      );
    const instructions = live?.state === 'connected' ? live.instructions?.trim() : undefined;
    if (instructions) tooltip.appendMarkdown(instructionsHoverMarkdown(instructions));
    tooltip.appendMarkdown(`\nDeclared in \`${where}\``);
    item.tooltip = tooltip;
    item.accessibilityInformation = {
      label: `Server ${server.id}, ${blocked ? 'blocked by policy' : stateWords}, declared in ${where}`,
    };
    return item;
  }
}

function keptFrom(config: KernelConfig, server: ConfiguredServer): boolean {
  const file = config.files.find((f) => f.location.path === server.source.file);
  return file?.kept?.servers.includes(server.id) ?? false;
}

function toolCount(count: number): string {
  return count === 1 ? '1 tool' : `${count} tools`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** " · sandboxed" or " · not sandboxed" after a stdio server's tool count. */
function isolationMark(isolation: Isolation | undefined): string {
  if (!isolation) return '';
  return isolation.sandboxed ? ' · sandboxed' : ' · not sandboxed';
}
