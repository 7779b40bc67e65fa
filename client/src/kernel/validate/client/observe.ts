/**
 * What the client checks share: how the client's run ended (a hang or a crash FAILs every check of
 * its scenario), which sessions offered MGP and which extension, and the exchange a FAIL shows.
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { fail, missing, shown, type Verdict } from '../context';
import type { Exchange } from '../types';
import type { ProbeSession } from './probeSession';
import type { ClientRun, Observation, ProbeTool } from './scenario';

/** A FAIL when the client hung, could not start, or exited with an error or a signal. */
export function runProblem(run: ClientRun): Verdict | undefined {
  const stderr = run.stderrTail ? `; its stderr ends: ${shown(run.stderrTail.slice(-400))}` : '';
  if (run.timedOut)
    return fail({
      detail: `the client did not exit within ${run.timeoutMs / 1000} s (timeout): its process group was killed`,
      expected: 'the client to do what the scenario asks, then exit',
      received: `still running after ${run.timeoutMs / 1000} s${stderr}`,
      advice: 'see what the client waits for; --timeout SECONDS gives it longer',
    });
  if (run.spawnError)
    return fail({
      detail: 'the client could not be started',
      expected: 'a command that starts',
      received: run.spawnError,
    });
  if (run.exitCode !== 0)
    return fail({
      detail: `the client ${run.signal ? `was ended by ${run.signal}` : `exited with status ${run.exitCode}`}`,
      expected: 'exit status 0 once the scenario is done',
      received: `${run.signal ?? `status ${run.exitCode}`}${stderr}`,
    });
  return undefined;
}

export function offersMgp(session: ProbeSession): boolean {
  const mgp = session.offer.mgp;
  return typeof mgp === 'object' && mgp !== null;
}

/** The sessions on which `extension` is active (the client offered it, and the probe has it all). */
export function sessionsWith(seen: Observation, extension: string): ProbeSession[] {
  return seen.sessions.filter((session) => session.active(extension));
}

/**
 * MISSING when no session offered MGP, or none offered `extension` (MGP §2.2): the client does not
 * implement that part. Undefined when it did.
 */
export function notOffered(
  seen: Observation,
  extension: string,
  advice: string,
): Verdict | undefined {
  if (!seen.sessions.length)
    return missing('the client never connected to the probe server', advice);
  if (!seen.sessions.some(offersMgp))
    return missing('the client did not offer capabilities.mgp at initialize (MGP §2.2)', advice);
  if (!sessionsWith(seen, extension).length)
    return missing(`the client did not offer the "${extension}" extension (MGP §2.2)`, advice);
  return undefined;
}

/** The client's request and the probe's answer, for a FAIL. */
export function exchangeOf(session: ProbeSession, id: RequestId): Exchange | undefined {
  const sent = session.messages.find(
    ({ direction, message }) =>
      direction === 'in' && 'method' in message && 'id' in message && message.id === id,
  );
  if (!sent) return undefined;
  const answer = session.answerTo(id);
  return { sent: shown(sent.message), received: answer ? shown(answer.message) : 'no answer' };
}

/** Every tools/call of the scenario, with the session it came on. */
export function allCalls(seen: Observation, name?: string) {
  return seen.sessions.flatMap((session) =>
    session.toolCalls(name).map((call) => ({ session, call })),
  );
}

/** A text result, as the probe's tools give them. */
export function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

export const OBJECT_SCHEMA = { type: 'object', properties: {} };

/** A safe, read-only tool that answers with a fixed text (MGP §4.4 `safe`). */
export function safeTool(name: string, description: string, answer: string): ProbeTool {
  return {
    name,
    description,
    inputSchema: OBJECT_SCHEMA,
    security: { risk_level: 'safe', side_effects: [], reversible: true },
    annotations: { readOnlyHint: true },
    run: async () => text(answer),
  };
}
