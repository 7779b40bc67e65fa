/**
 * Who makes a call. Agents carry an `agent_id` (MGP §5.4); the person at the editor is `agent.vscode`
 * and the person at the terminal `agent.cli`, both operators: they may use the kernel's administrative
 * tools. Agents that call later (chat tools, the gateway) get their own ids and the rights granted them.
 */
export interface Caller {
  agentId: string;
  kind: 'operator' | 'agent';
  /**
   * The caller's own tool session (MGP §16.7: discovery answers and the session cache are per session):
   * an agent's conversation has one; without it the kernel's shared session answers.
   */
  toolSession?: CallerToolSession;
  /** Where the events of the caller's subscriptions go (MGP §13.3); without it nobody hears them. */
  events?: CallerEvents;
}

/** Takes the events of a subscription the caller made with `mgp.events.subscribe` (MGP §13.2). */
export interface CallerEvents {
  subscribed(subscriptionId: string): void;
}

/** What the kernel needs of a caller's tool session: it answers the `mgp.tools.*` calls made in it. */
export interface CallerToolSession {
  call(name: string, args: unknown): Promise<unknown>;
}

export const EDITOR_OPERATOR: Caller = { agentId: 'agent.vscode', kind: 'operator' };
export const CLI_OPERATOR: Caller = { agentId: 'agent.cli', kind: 'operator' };

export function actorOf(caller: Caller): { type: 'operator' | 'agent'; id: string } {
  return { type: caller.kind, id: caller.agentId };
}
