import { strict as assert } from 'node:assert';
import type { PushEventsPolicy } from '../../client/src/kernel/config/types';
import { FeatureSetTable } from '../../client/src/kernel/mcpl/featureSets';
import type { McplAudit } from '../../client/src/kernel/mcpl/mcplAudit';
import { PushEvents } from '../../client/src/kernel/mcpl/pushEvents';

const table = new FeatureSetTable(
  [{ name: 'alerts.push', description: '', uses: ['pushEvents'], scoped: false, rollback: false }],
  undefined,
  () => ({ 'alerts.push': true }),
);

function pushEvents(policy: PushEventsPolicy, rate = 10) {
  const audited: string[] = [];
  const audit = { record: (_: string, facts: { outcome: string }) => audited.push(facts.outcome) };
  const events = new PushEvents({
    audit: audit as unknown as McplAudit,
    policyOf: () => policy,
    rateOf: () => rate,
  });
  return { events, audited };
}

const event = (eventId: string) => ({
  featureSet: 'alerts.push',
  eventId,
  timestamp: new Date().toISOString(),
  payload: { content: [{ type: 'text', text: `alert ${eventId}` }] },
});

describe('push events kept for the Events view (MCPL §9)', () => {
  it('an event the config rejects is kept as rejected, with the reason', async () => {
    const { events, audited } = pushEvents('reject');
    const answer = await events.receive('live', table, event('e1'));
    assert.equal(answer.accepted, false);
    const [kept] = events.recent();
    assert.equal(kept.eventId, 'e1');
    assert.equal(kept.status, 'rejected');
    assert.match(kept.reason ?? '', /rejected by config \(push_events\)/);
    assert.deepEqual(audited, ['REJECTED']);
  });

  it('an event over the rate limit is kept as rejected, with the limit named', async () => {
    // A rate of 0 refuses every event, however long the test takes.
    const { events, audited } = pushEvents('queue', 0);
    for (const id of ['e1', 'e2']) await events.receive('live', table, event(id));
    assert.deepEqual(
      events.recent().map((e) => [e.eventId, e.status]),
      [
        ['e2', 'rejected'],
        ['e1', 'rejected'],
      ],
    );
    assert.match(events.recent()[0].reason ?? '', /rate limit: live may push 0 events per second/);
    assert.deepEqual(audited, ['RATE_LIMITED', 'RATE_LIMITED']);
  });
});
