/** How the Agents view's rows read (pure: tested in node). */
import { oneLine } from '@shared/untrustedText';
import {
  type A2aTaskRecord,
  type AgentCardSummary,
  DIALECT_NAMES,
  INTERRUPTED_STATES,
  type ServerState,
} from '../../kernel';
import type { HoldReason } from '../host/startGate';
import { textOfParts } from './agentTaskView';

const AGENT_STATE_WORDS: Record<ServerState, string> = {
  registered: 'not started',
  connecting: 'reading its card…',
  connected: 'reachable',
  draining: 'stopping',
  disconnected: 'stopped',
  error: 'unreachable',
  restarting: 'trying again…',
};

const HOLD_WORDS: Record<NonNullable<HoldReason>, string> = {
  untrusted: 'Restricted Mode: not contacted',
  unapproved: 'not contacted until you allow it',
};

/** How an agent's row reads (pure: tested in node). */
export function agentDescription(
  state: ServerState,
  card: AgentCardSummary | undefined,
  options: { hold?: HoldReason; lastError?: string } = {},
): string {
  if (state === 'registered' && options.hold) return HOLD_WORDS[options.hold];
  const words = [AGENT_STATE_WORDS[state]];
  if (state === 'error' && options.lastError) words[0] += `: ${oneLine(options.lastError)}`;
  if (card && state === 'connected') {
    words.push(DIALECT_NAMES[card.dialect]);
    words.push(card.skills.length === 1 ? '1 skill' : `${card.skills.length} skills`);
  }
  return words.join(' · ');
}

/** How a task's row reads: its state, and the agent's question when it waits. */
export function taskDescription(record: A2aTaskRecord): string {
  const { task } = record;
  const state = task.state === 'canceled' ? 'cancelled' : task.state.replace('-', ' ');
  const question = task.statusMessage ? oneLine(textOfParts(task.statusMessage.parts)) : '';
  if (INTERRUPTED_STATES.has(task.state) && question) return `${state}: ${question}`;
  return `${state} · ${new Date(record.updatedAt).toLocaleTimeString()}`;
}
