/**
 * MCPL in the @mgp conversation: a context hook's injection (§10) is shown where it happened, as
 * coming from its server; push events (§9) the user sent to the agent are shown in the turn that
 * delivers them. Both are lines of their own in the response (a progress line would vanish when the
 * response completes), marked so that the history the model reads again leaves them out: they are
 * not the assistant's words.
 */
import * as vscode from 'vscode';
import { oneLine } from '@shared/untrustedText';
import { code } from '../common/untrustedMarkdown';
import type { AgentSession, McplHost, PushEvent, ShownInjection } from '../../kernel';

const POSITION: Record<ShownInjection['position'], string> = {
  system: 'the system prompt',
  beforeUser: 'before your message',
  afterUser: 'after your message',
};

/** Starts each line the kernel adds about MCPL; no line of the model's answer is taken for one. */
const MARK = '\u2937 ';

/** A line of its own in markdown; the server's names as inline code, where nothing of theirs is live. */
function shown(text: string): string {
  return `\n\n${MARK}${text}\n\n`;
}

/** An answer's text without the lines `shown` added, for the history the model reads again. */
export function withoutShownLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith(MARK))
    .join('\n');
}

export function injectionLine(injection: ShownInjection): string {
  return shown(
    `context from ${code(oneLine(injection.serverId))} (${code(oneLine(injection.featureSet))}) into ${POSITION[injection.position]}: ${injection.text.length} characters`,
  );
}

export function eventLine(event: PushEvent): string {
  return shown(
    `event from ${code(oneLine(event.serverId))} (${code(oneLine(event.featureSet))}) delivered to the agent`,
  );
}

export function eventText(event: PushEvent): string {
  return event.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join('\n');
}

/**
 * Shows the injections of this session's inferences in its response while `run` lasts. A hook runs
 * before each inference of the turn (§10.1); the same injection again is not shown again.
 */
export async function showingInjections<T>(
  mcpl: Pick<McplHost, 'onInjection'>,
  session: AgentSession,
  stream: vscode.ChatResponseStream,
  run: () => Promise<T>,
): Promise<T> {
  const seen = new Set<string>();
  const stop = mcpl.onInjection((injection) => {
    if (injection.conversationId !== session.conversationId) return;
    const key = JSON.stringify([
      injection.serverId,
      injection.featureSet,
      injection.position,
      injection.text,
    ]);
    if (seen.has(key)) return;
    seen.add(key);
    stream.markdown(injectionLine(injection));
  });
  try {
    return await run();
  } finally {
    stop();
  }
}

/**
 * Push events the user sends to the agent go to the most recent @mgp conversation, delivered before
 * its next inference (§9.1); the turn that takes them says so.
 */
export class ChatPushEvents implements vscode.Disposable {
  private latest: AgentSession | undefined;
  private readonly waiting = new Map<AgentSession, PushEvent[]>();

  constructor(private readonly mcpl: Pick<McplHost, 'pushEvents'>) {}

  /** The conversation the user spoke in last takes the next events. */
  attach(session: AgentSession): void {
    this.latest = session;
    this.mcpl.pushEvents.deliverTo(async (event) => {
      const target = this.latest;
      if (!target) throw new Error('no @mgp conversation is open');
      const taken = target.push({
        eventId: event.eventId,
        source: event.serverId,
        timestamp: event.timestamp,
        text: eventText(event),
      });
      if (!taken.accepted) throw new Error(taken.reason ?? 'not taken');
      this.waiting.set(target, [...(this.waiting.get(target) ?? []), event]);
      // No inference runs until the user's next message there (§9.3: so no inferenceId).
      return {
        reason:
          "delivered to the @mgp conversation: it reaches the model at the user's next message",
      };
    });
  }

  /** Shows the events the session takes in this turn. */
  show(session: AgentSession, stream: vscode.ChatResponseStream): void {
    for (const event of this.waiting.get(session) ?? []) stream.markdown(eventLine(event));
    this.waiting.delete(session);
  }

  forget(session: AgentSession): void {
    this.waiting.delete(session);
    if (this.latest === session) {
      this.latest = undefined;
      this.mcpl.pushEvents.deliverTo(undefined);
    }
  }

  dispose(): void {
    this.latest = undefined;
    this.waiting.clear();
    this.mcpl.pushEvents.deliverTo(undefined);
  }
}
