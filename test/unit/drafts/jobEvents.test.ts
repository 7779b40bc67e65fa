import { strict as assert } from 'node:assert';
import {
  JobEventLog,
  jobEventRequest,
  parseJobEvent,
  payloadSummary,
  type JobEvent,
} from '../../../client/src/kernel/drafts/jobEvents';
import { determinismOf } from '../../../client/src/kernel/drafts/determinism';

const event = (id: number, phase?: string): JobEvent => {
  const parsed = parseJobEvent({ id, phase, event_type: 'step', payload: { n: id } });
  assert.notEqual(typeof parsed, 'string');
  return parsed as JobEvent;
};

describe('MCP draft job events (§4) and determinism metadata (§2)', () => {
  it('reads the wire example of the draft', () => {
    const parsed = parseJobEvent({
      progressToken: 3,
      id: 128,
      event_type: 'synthesis_token',
      phase: 'verify',
      payload: { content: '...' },
      meta: {
        seed_used: 42,
        determinism: 'best_effort',
        resource_used: { device: 'webgpu', max_context: 32768, rope_scale: 2.0 },
      },
    });
    assert.deepEqual(parsed, {
      id: 128,
      phase: 'verify',
      eventType: 'synthesis_token',
      payload: { content: '...' },
      determinism: { seedUsed: 42, determinism: 'best_effort' },
    });
    assert.equal(jobEventRequest({ progressToken: 3 }), 3);
    assert.equal(jobEventRequest({ request_id: 'r' }), 'r');
    assert.equal(jobEventRequest({}), undefined);
  });

  it('says what is wrong with an event it cannot take', () => {
    assert.match(parseJobEvent({ phase: 'dream' }) as string, /phase is not one of/);
    assert.match(parseJobEvent({ id: 1.5 }) as string, /id is neither/);
    assert.match(parseJobEvent({ id: 'x'.repeat(300) }) as string, /id is neither/);
    assert.match(parseJobEvent({ event_type: 7 }) as string, /event_type/);
    assert.match(parseJobEvent([]) as string, /not an object/);
  });

  it('keeps each event id once: a replay after a resumed stream is counted, not kept', () => {
    const log = new JobEventLog();
    for (const id of [1, 2, 3]) assert.ok(log.accept(event(id, 'observe')));
    assert.equal(log.accept(event(3, 'observe')), false);
    assert.equal(log.accept(event(2, 'observe')), false);
    assert.ok(log.accept(event(4, 'act')));
    assert.deepEqual(
      log.events.map((e) => e.id),
      [1, 2, 3, 4],
    );
    assert.equal(log.duplicates, 2);
    assert.equal(log.byPhase.observe, 3);
    assert.equal(log.byPhase.act, 1);
    assert.equal(log.lastId, 4);
  });

  it('tells a number id from the same digits as a string, and keeps events with no id', () => {
    const log = new JobEventLog();
    assert.ok(log.accept(event(1)));
    assert.ok(log.accept(parseJobEvent({ id: '1', event_type: 'x' }) as JobEvent));
    assert.ok(log.accept(parseJobEvent({ event_type: 'x' }) as JobEvent));
    assert.ok(log.accept(parseJobEvent({ event_type: 'x' }) as JobEvent));
    assert.equal(log.accepted, 4);
    assert.equal(log.byPhase.none, 4);
  });

  it('reads seed_used and determinism from a result’s _meta or meta, and ignores other types', () => {
    assert.deepEqual(determinismOf({ _meta: { seed_used: 9, determinism: 'strict' } }), {
      seedUsed: 9,
      determinism: 'strict',
    });
    assert.deepEqual(determinismOf({ meta: { seed_used: null } }), { seedUsed: null });
    assert.equal(determinismOf({ _meta: { seed_used: '9', determinism: 'sure' } }), undefined);
    assert.equal(determinismOf({ content: [] }), undefined);
  });

  it('sums a payload up as its text content, or its JSON, cut short', () => {
    assert.equal(payloadSummary({ content: 'hello' }), 'hello');
    assert.equal(payloadSummary({ n: 1 }), '{"n":1}');
    assert.equal(payloadSummary('x'.repeat(500), 10).length, 10);
  });
});
