/**
 * Scoped access (MCPL §7): the whitelist and blacklist of each scoped feature set (sent in
 * `featureSets/update.scopes`, §7.2), the host's evaluation of `scope/elevate` (§7.6: blacklist
 * denies, whitelist approves, anything else is asked), and the check of a scoped tools/call (§7.7).
 * Answers are kept for the session; identical questions wait for one answer, and a server that
 * floods elevation requests is refused past a bound, saying why.
 */
import picomatch from 'picomatch';
import type { McplSettings } from '../config/types';
import type { ScopeQuestion } from '../host/interaction';

/** Elevation questions of one server waiting for the user at once, at most. */
export const MAX_WAITING_QUESTIONS = 8;

export type ScopeDecisionBy = 'blacklist' | 'whitelist' | 'session' | 'user' | 'nobody' | 'flood';

export interface ScopeDecision {
  approved: boolean;
  by: ScopeDecisionBy;
  reason?: string;
}

export interface ScopeLists {
  whitelist: readonly string[];
  blacklist: readonly string[];
}

const matchers = new Map<string, (label: string) => boolean>();

/** Pattern semantics are the host's (§7.2): globs, `**` across `/`, dotfiles included. */
export function scopeMatches(pattern: string, label: string): boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    if (matchers.size > 1000) matchers.clear();
    matchers.set(pattern, matcher);
  }
  return matcher(label);
}

export function listsFor(settings: McplSettings | undefined, featureSet: string): ScopeLists {
  return settings?.scopes[featureSet] ?? { whitelist: [], blacklist: [] };
}

/** §7.6 steps 1 and 2; undefined when the host must decide (step 3). */
export function listDecision(lists: ScopeLists, label: string): ScopeDecision | undefined {
  const black = lists.blacklist.find((p) => scopeMatches(p, label));
  if (black)
    return { approved: false, by: 'blacklist', reason: `"${label}" matches blacklist "${black}"` };
  const white = lists.whitelist.find((p) => scopeMatches(p, label));
  if (white) return { approved: true, by: 'whitelist' };
  return undefined;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export type Ask = (question: ScopeQuestion) => Promise<boolean> | undefined;

/** The session's answers and the questions waiting for one. */
export class ScopeAnswers {
  private readonly answered = new Map<string, boolean>();
  private readonly waiting = new Map<string, Promise<ScopeDecision>>();
  private readonly waitingPerServer = new Map<string, number>();

  private key(question: ScopeQuestion): string {
    return [
      question.serverId,
      question.featureSet,
      question.label,
      canonical(question.payload ?? null),
    ].join('\u0000');
  }

  /** §7.6: lists first, then the session's answer, then the user (one question per distinct scope). */
  decide(question: ScopeQuestion, lists: ScopeLists, ask: Ask): Promise<ScopeDecision> {
    const byList = listDecision(lists, question.label);
    if (byList) return Promise.resolve(byList);
    const key = this.key(question);
    const known = this.answered.get(key);
    if (known !== undefined)
      return Promise.resolve({
        approved: known,
        by: 'session',
        reason: known ? undefined : 'denied earlier in this session',
      });
    const pending = this.waiting.get(key);
    if (pending) return pending;
    const count = this.waitingPerServer.get(question.serverId) ?? 0;
    if (count >= MAX_WAITING_QUESTIONS)
      return Promise.resolve({
        approved: false,
        by: 'flood',
        reason: `${question.serverId} already has ${count} scope requests waiting for the user (at most ${MAX_WAITING_QUESTIONS}); ask again once they are answered`,
      });
    const asked = ask(question);
    if (!asked)
      return Promise.resolve({
        approved: false,
        by: 'nobody',
        reason: 'no one is there to approve the scope',
      });
    this.waitingPerServer.set(question.serverId, count + 1);
    const decision = asked.then(
      (approved): ScopeDecision => {
        this.answered.set(key, approved);
        return { approved, by: 'user', reason: approved ? undefined : 'denied by the user' };
      },
      (error: unknown): ScopeDecision => ({
        approved: false,
        by: 'nobody',
        reason: `the question failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
    this.waiting.set(key, decision);
    void decision.then(() => {
      this.waiting.delete(key);
      const left = (this.waitingPerServer.get(question.serverId) ?? 1) - 1;
      if (left > 0) this.waitingPerServer.set(question.serverId, left);
      else this.waitingPerServer.delete(question.serverId);
    });
    return decision;
  }

  /** The session's answers about one server (for the views), newest last. */
  of(serverId: string): { featureSet: string; label: string; approved: boolean }[] {
    return [...this.answered].flatMap(([key, approved]) => {
      const [server, featureSet, label] = key.split('\u0000');
      return server === serverId ? [{ featureSet, label, approved }] : [];
    });
  }

  forget(serverId?: string): void {
    for (const key of [...this.answered.keys()])
      if (serverId === undefined || key.startsWith(`${serverId}\u0000`)) this.answered.delete(key);
  }
}
