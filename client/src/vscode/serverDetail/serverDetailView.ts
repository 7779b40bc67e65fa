/**
 * What the server detail page shows of one server, made from the kernel's objects: its state and
 * where it is declared, what it said at initialize (name, version, capabilities, instructions), what
 * both sides negotiated (MGP extensions, MCPL feature sets), the permissions it asked for with the
 * decisions in force, and its tools with their switches. Pure (no `vscode`): tested in node.
 */
import {
  type ConfiguredServer,
  describeIsolation,
  type EffectiveSecurity,
  type FeatureSetView,
  type ListedTool,
  type NegotiatedMgp,
  type PermissionDecision,
  serverTarget,
  type SupervisedServer,
} from '../../kernel';
import type {
  ServerDetailFeatureSet,
  ServerDetailPermission,
  ServerDetailView,
} from '@shared/serverDetailMessages';
import { oneLine, visibleText } from '@shared/untrustedText';

export interface ServerDetailDeps {
  config: ConfiguredServer;
  /** The supervised server; undefined while it was never registered with the manager. */
  live: SupervisedServer | undefined;
  declaredIn: string;
  serverOff: boolean;
  toolOff(toolName: string): boolean;
  securityOf(server: SupervisedServer, tool: ListedTool): EffectiveSecurity;
  mgp: NegotiatedMgp | undefined;
  featureSets: readonly FeatureSetView[] | undefined;
  permissionState(permission: string): 'approved' | 'denied' | undefined;
  decisions: readonly PermissionDecision[];
  /** The server's icon as checked `data:` URIs (serverIcons.ts), when it has one that may be shown. */
  icon?: { light: string; dark: string };
}

const SOURCE_WORDS: Record<FeatureSetView['source'], string> = {
  user: 'your switch',
  config: 'from config',
  default: 'off by default',
};

/** `tools`, `resources`, …, and `experimental.mcpl`: the keys a server declared at initialize. */
function capabilityNames(raw: Record<string, unknown>): string[] {
  return Object.entries(raw).flatMap(([key, value]) =>
    key === 'experimental' && typeof value === 'object' && value !== null
      ? Object.keys(value).map((name) => `experimental.${oneLine(name)}`)
      : [oneLine(key)],
  );
}

/** Every permission the server asked for, and any decision kept for it from an earlier session. */
function permissions(deps: ServerDetailDeps): ServerDetailPermission[] {
  const id = deps.config.id;
  const names = new Set([
    ...(deps.mgp?.permissionsRequired ?? []),
    ...deps.decisions.filter((d) => d.server_id === id).map((d) => d.permission),
  ]);
  return [...names].map((name) => {
    const decision = deps.permissionState(name);
    const kept = deps.decisions.find((d) => d.server_id === id && d.permission === name);
    return {
      name: oneLine(name),
      ...(decision ? { decision } : {}),
      ...(decision && kept?.decision === decision && kept.expires_at
        ? { expiresAt: kept.expires_at }
        : {}),
    };
  });
}

function featureSets(
  sets: readonly FeatureSetView[] | undefined,
): ServerDetailFeatureSet[] | undefined {
  return sets?.map((set) => ({
    name: oneLine(set.name),
    enabled: set.enabled,
    source: SOURCE_WORDS[set.source],
  }));
}

/** The state in words, and why it is not running when it is not. */
function stateOf(deps: ServerDetailDeps): Pick<ServerDetailView, 'state' | 'stateNote'> {
  const live = deps.live;
  const blocked = deps.config.blockedByPolicy;
  if (blocked)
    return {
      state: 'blocked by policy',
      stateNote: `Blocked by the managed policy: ${oneLine(blocked.reason)} (${blocked.file}:${blocked.line}). It does not start, whoever asks.`,
    };
  if (deps.serverOff)
    return {
      state: 'turned off',
      stateNote: 'Turned off by you: it does not start until you turn it on.',
    };
  const state = live?.state ?? 'registered';
  if (state === 'registered' && live?.heldBack)
    return { state: 'not started', stateNote: `Not started: ${oneLine(live.heldBack)}.` };
  return { state };
}

export function serverDetailView(deps: ServerDetailDeps): ServerDetailView {
  const { config, live } = deps;
  const connected = live?.state === 'connected';
  const connection = connected ? live.liveConnection : undefined;
  const info = connection?.serverInfo;
  const instructions = connected ? live.instructions?.trim() : undefined;
  return {
    id: config.id,
    ...stateOf(deps),
    transport: config.transport,
    target: oneLine(serverTarget(config)),
    declaredIn: deps.declaredIn,
    ...(live?.isolation ? { isolation: describeIsolation(live.isolation) } : {}),
    ...(info
      ? {
          serverInfo: {
            name: oneLine(String(info.name)),
            version: oneLine(String(info.version)),
            ...(info.title ? { title: oneLine(String(info.title)) } : {}),
          },
        }
      : {}),
    ...(deps.icon && connected ? { icon: deps.icon } : {}),
    ...(connection?.protocolVersion ? { protocolVersion: connection.protocolVersion } : {}),
    capabilities: connection ? capabilityNames(connection.rawServerCapabilities) : [],
    ...(deps.mgp && connected
      ? {
          mgp: {
            version: oneLine(deps.mgp.version),
            extensions: [...deps.mgp.extensions].sort(),
            ...(deps.mgp.trustLevel ? { trustLevel: oneLine(deps.mgp.trustLevel) } : {}),
          },
        }
      : {}),
    ...(deps.featureSets && connected ? { featureSets: featureSets(deps.featureSets) } : {}),
    permissions: permissions(deps),
    ...(instructions ? { instructions: visibleText(instructions) } : {}),
    tools: connected
      ? live.tools.map((tool) => ({
          name: tool.name,
          label: oneLine(tool.name),
          ...(tool.description ? { description: oneLine(tool.description) } : {}),
          risk: deps.securityOf(live, tool).risk_level,
          off: deps.toolOff(tool.name),
        }))
      : [],
    ...(live?.lastError ? { lastError: visibleText(live.lastError) } : {}),
    off: deps.serverOff,
    connected,
  };
}
