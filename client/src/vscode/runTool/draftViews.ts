/**
 * The MCP draft extensions (Nov 2025) as the tool panels show them, made from the kernel's objects:
 * the seed fields a tool declares, what a result says of its seed, a stream's job events by phase.
 * Pure (no `vscode`): tested in node.
 */
import {
  type DeterminismView,
  type JobEventView,
  type JobsView,
  SEED_FIELD_NAMES,
  type SeedFieldName,
} from '@shared/draftViews';
import {
  declaredDraftFields,
  type Determinism,
  determinismOf,
  type JobEvent,
  payloadSummary,
  type StreamSnapshot,
} from '../../kernel';

/** The panels keep this many of a stream's newest events. */
export const EVENTS_SHOWN = 200;

/** §2: the seed fields the tool's schema declares, for the form's advanced options. */
export function seedFieldsOf(schema: unknown): SeedFieldName[] {
  const declared = declaredDraftFields(schema);
  return SEED_FIELD_NAMES.filter((field) => declared.includes(field));
}

export function determinismView(found: Determinism | undefined): DeterminismView | undefined {
  if (!found) return undefined;
  return { seedUsed: found.seedUsed, ...(found.determinism ? { level: found.determinism } : {}) };
}

/** §2 of a tool result, for the Run Tool panel. */
export function resultDeterminism(result: unknown): { determinism?: DeterminismView } {
  const view = determinismView(determinismOf(result));
  return view ? { determinism: view } : {};
}

export function jobEventView(event: JobEvent): JobEventView {
  return {
    ...(event.id !== undefined ? { id: event.id } : {}),
    ...(event.phase ? { phase: event.phase } : {}),
    eventType: event.eventType,
    text: payloadSummary(event.payload),
  };
}

/** §4 and §2 of a stream, for the Streaming panel. */
export function streamDrafts(snapshot: StreamSnapshot): {
  jobs?: JobsView;
  determinism?: DeterminismView;
} {
  const determinism = determinismView(snapshot.determinism);
  return {
    ...(snapshot.jobs
      ? {
          jobs: {
            phases: { ...snapshot.jobs.phases },
            events: snapshot.jobs.events.slice(-EVENTS_SHOWN).map(jobEventView),
            duplicates: snapshot.jobs.duplicates,
          },
        }
      : {}),
    ...(determinism ? { determinism } : {}),
  };
}
