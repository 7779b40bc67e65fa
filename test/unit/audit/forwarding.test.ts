import { strict as assert } from 'node:assert';
import { AuditLog } from '../../../client/src/kernel/audit/auditLog';
import { AuditTrail } from '../../../client/src/kernel/audit/auditTrail';
import { eventually, HANG_MS } from '../../support/patience';
import { sampleEvent, tempDir } from './support';

// MGP §6.3 "Audit Event Delivery": a recorded event goes to the server it is about, when that server
// negotiated audit. A flush waits for those forwards (so a shutdown does not cut them off), but only
// so long: a server that never takes the notification does not hold it up.

/** A trail forwarding to one server whose notifications resolve when the test says. */
async function trailWith(dir: string, forwardPatienceMs: number) {
  const log = await AuditLog.open({ directory: dir, writer: 'inline' });
  const trail = new AuditTrail(log, { forwardPatienceMs });
  const sent: { method: string; deliver(): void }[] = [];
  const connection = {
    notify: (method: string) =>
      new Promise<void>((resolve) => sent.push({ method, deliver: resolve })),
  };
  const manager = { find: (id: string) => ({ id, liveConnection: connection }) };
  const mgp = { active: () => true, on: () => undefined };
  trail.connect(manager as never, mgp as never);
  return { trail, sent };
}

describe('audit forwarding to servers', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir('mgp-audit-forward-')));
  afterEach(() => remove());

  it('flush() waits until the forward of each recorded event is sent', async () => {
    const { trail, sent } = await trailWith(dir, HANG_MS);
    await trail.record(sampleEvent(1));
    let flushed = false;
    const flushing = trail.flush().then(() => (flushed = true));
    await eventually(() => sent.length === 1, 'the forward');
    assert.equal(sent[0].method, 'notifications/mgp.audit');
    await Promise.resolve();
    assert.equal(flushed, false, 'flushed while the forward was still on its way');
    sent[0].deliver();
    await flushing;
    assert.equal(flushed, true);
    await trail.close();
  });

  it('flush() gives up on a forward the server never takes', async () => {
    const { trail, sent } = await trailWith(dir, 20);
    await trail.record(sampleEvent(1));
    await trail.flush();
    assert.equal(sent.length, 1);
    await trail.close();
  });
});
