import { strict as assert } from 'node:assert';
import type * as SeedOptions from '../../../media/src/shared/seedOptions';
import { StreamBatcher } from '../../../client/src/vscode/common/streamBatcher';
import { resultView, streamView, toolView } from '../../../client/src/vscode/runTool/toolViews';
import { parseJobEvent, type JobEvent } from '../../../client/src/kernel/drafts/jobEvents';
import { ActiveStream } from '../../../client/src/kernel/streaming/streamRegistry';
import type { KernelToolEntry } from '../../../client/src/kernel/kernel';
import type { StreamUpdate } from '@shared/streamMessages';
import { browserModule } from './browserModule';

const { splitSchema } = browserModule<typeof SeedOptions>('media/src/shared/seedOptions.ts');

const seeded = {
  type: 'object',
  properties: { sides: { type: 'integer' }, seed: { type: 'integer' }, prng: { enum: ['lcg'] } },
  required: ['sides'],
};

const entry = (schema: Record<string, unknown>, kernel = false) =>
  ({
    serverId: 'drafts',
    name: 'roll_dice',
    kernel,
    tool: { name: 'roll_dice', inputSchema: schema },
    security: {
      risk_level: 'safe',
      side_effects: [],
      permissions_required: [],
      sources: {},
    },
  }) as unknown as KernelToolEntry;

describe('tool panels: the MCP draft extensions', () => {
  it('names the seed fields a tool declares, for the advanced options; none for kernel tools', () => {
    assert.deepEqual(toolView(entry(seeded), false).seedFields, ['seed', 'prng']);
    assert.equal(toolView(entry({ type: 'object' }), false).seedFields, undefined);
    assert.equal(toolView(entry(seeded, true), false).seedFields, undefined);
  });

  it('sets the seed fields apart from the form, unless the tool requires them', () => {
    const { main, apart, fields } = splitSchema(seeded, ['seed', 'prng']);
    assert.deepEqual(Object.keys(main.properties as object), ['sides']);
    assert.deepEqual(main.required, ['sides']);
    assert.deepEqual(Object.keys(apart!.properties as object), ['seed', 'prng']);
    assert.deepEqual(fields, ['seed', 'prng']);
    const required = splitSchema({ ...seeded, required: ['seed'] }, ['seed', 'prng']);
    assert.deepEqual(required.fields, ['prng']);
    assert.ok('seed' in (required.main.properties as object));
    assert.equal(splitSchema(seeded, undefined).apart, undefined);
  });

  it('shows what a result says of its seed', () => {
    const view = resultView(
      {
        result: {
          content: [],
          _meta: { seed_used: 42, determinism: 'strict' },
        } as never,
        traceId: 't',
        serverId: 'drafts',
        toolName: 'roll_dice',
        attempts: 1,
        durationMs: 1,
      },
      { images: false },
    );
    assert.deepEqual(view.determinism, { seedUsed: 42, level: 'strict' });
  });

  it("gives the Streaming panel a stream's job events by phase, and what it says of its seed", () => {
    const stream = new ActiveStream('s1', 'drafts', 'research', 'trace');
    const event = (id: number, phase: string) =>
      parseJobEvent({
        id,
        phase,
        event_type: `${phase}_step`,
        payload: { content: `step ${id}` },
        meta: { seed_used: 9, determinism: 'best_effort' },
      }) as JobEvent;
    for (const [id, phase] of [
      [1, 'observe'],
      [2, 'observe'],
      [2, 'observe'],
      [3, 'verify'],
    ] as const)
      stream.jobs.accept(event(id, phase));
    const view = streamView(stream.snapshot(), 100);
    assert.deepEqual(view.jobs?.phases, {
      observe: 2,
      abstract: 0,
      decide: 0,
      act: 0,
      verify: 1,
      none: 0,
    });
    assert.equal(view.jobs?.duplicates, 1);
    assert.deepEqual(view.jobs?.events[2], {
      id: 3,
      phase: 'verify',
      eventType: 'verify_step',
      text: 'step 3',
    });
    assert.deepEqual(view.determinism, { seedUsed: 9, level: 'best_effort' });
    assert.equal(streamView(new ActiveStream('s2', 'a', 'b', 't').snapshot(), 10).jobs, undefined);
  });

  it('batches job events in the order they came, with the text around them', () => {
    const batches: StreamUpdate[][] = [];
    const batcher = new StreamBatcher((updates) => batches.push(updates), {
      clock: { now: () => 0, setTimer: () => 1, clearTimer: () => undefined },
    });
    batcher.text('s', 'a', 1);
    batcher.jobEvent('s', { id: 1, phase: 'act', eventType: 'x', text: '' });
    batcher.jobEvent('s', { id: 2, phase: 'act', eventType: 'x', text: '' });
    batcher.flush();
    assert.deepEqual(
      batches[0].map((u) => (u.kind === 'jobEvent' ? `event ${u.event.id}` : u.kind)),
      ['text', 'event 1', 'event 2'],
    );
  });
});
