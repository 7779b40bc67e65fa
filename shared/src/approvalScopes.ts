/**
 * The scopes one "Allow" can have, worded once for every place that asks: the editor's dialog, the
 * Approvals panel and the chat. "Always" is kept in the workspace's own state folder, so it covers
 * this tool in this folder only (the `mgp` command run in the folder honours it too).
 */
export type AllowScope = 'once' | 'session' | 'server_session' | 'always';

export interface AllowScopeChoice {
  scope: AllowScope;
  label: (serverId: string) => string;
  /** What the scope covers, in plain words. */
  covers: (serverId: string, toolName: string) => string;
}

export const ALLOW_SCOPES: readonly AllowScopeChoice[] = [
  {
    scope: 'once',
    label: () => 'Once',
    covers: () => 'This call only; the next one asks again.',
  },
  {
    scope: 'session',
    label: () => 'This session',
    covers: (_, tool) => `${tool}, until the editor window closes.`,
  },
  {
    scope: 'server_session',
    label: (server) => `All of "${server}" this session`,
    covers: (server) => `Every tool of "${server}", until the editor window closes.`,
  },
  {
    scope: 'always',
    label: () => 'Always in this workspace',
    covers: (_, tool) =>
      `${tool} in this workspace folder, until you revoke it in the Approvals panel (the mgp command in this folder honours it too).`,
  },
];

export function allowScopeChoice(scope: AllowScope): AllowScopeChoice {
  return ALLOW_SCOPES.find((choice) => choice.scope === scope) ?? ALLOW_SCOPES[0];
}

/**
 * Where a tool's risk level came from, in plain words (MGP §4: the sources the kernel merges).
 */
export const RISK_SOURCE_WORDS: Readonly<Record<string, string>> = {
  config: 'set in your config',
  server: 'as the server declares it',
  annotations: "from the server's hints",
  heuristic: "the kernel's judgement from the tool's name and description",
  default: 'the default for a tool that says nothing',
};

/** Who asked, in plain words; the agent's id stays available for a hover. */
export function requesterName(agentId: string): string {
  if (agentId === 'agent.vscode' || agentId === 'operator') return 'you, in the editor';
  if (agentId === 'agent.copilot') return 'Copilot';
  if (agentId === 'agent.cli') return 'you, with the mgp command';
  if (agentId === 'agent.chat') return 'the @mgp chat';
  const gatewayClient = /^agent\.gateway\.(.+)$/.exec(agentId)?.[1];
  if (gatewayClient) return `${gatewayClient} through mgp serve`;
  const a2aPeer = /^agent\.a2a\.(.+)$/.exec(agentId)?.[1];
  if (a2aPeer) return `the A2A agent ${a2aPeer === 'peer' ? 'holding your token' : `"${a2aPeer}"`}`;
  return agentId;
}
