/**
 * What a delegation to an external A2A agent tells the kernel about itself, in its result's `_meta`
 * (a2a/content.ts writes it, the pipeline's audit keeps it: pipeline/forward.ts).
 */

/** The `_meta` key of a delegation's facts. */
export const A2A_META = 'dev.mgp-kernel/a2a';

export interface A2aCallFacts {
  agent: string;
  url: string;
  dialect: string;
  task_id?: string;
  context_id?: string;
  state: string;
  timed_out?: boolean;
}

/** The facts of a result that came from an external agent, as audit details. */
export function a2aAuditDetails(result: unknown): Record<string, unknown> {
  const meta = (result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[A2A_META];
  if (typeof meta !== 'object' || meta === null) return {};
  const facts = meta as Partial<A2aCallFacts>;
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : undefined);
  return {
    a2a: {
      agent: text(facts.agent),
      url: text(facts.url),
      dialect: text(facts.dialect),
      task_id: text(facts.task_id),
      context_id: text(facts.context_id),
      state: text(facts.state),
      ...(facts.timed_out === true ? { timed_out: true } : {}),
    },
  };
}
