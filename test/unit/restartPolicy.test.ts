import { strict as assert } from 'node:assert';
import { canTransition } from '../../client/src/kernel/domain/serverState';
import { DEFAULT_RESTART } from '../../client/src/kernel/config/settings';
import { RestartTracker } from '../../client/src/kernel/lifecycle/restartPolicy';

describe('restart policies (MGP §11.6)', () => {
  it('on_failure restarts failures with exponential backoff up to the cap, then gives up at the limit', () => {
    const tracker = new RestartTracker({
      ...DEFAULT_RESTART,
      maxRestarts: 6,
      backoffBaseMs: 1000,
      backoffMaxMs: 10_000,
    });
    const delays = [0, 1, 2, 3, 4, 5].map((i) => tracker.decide(true, i * 1000));
    assert.deepEqual(
      delays.map((d) => (d.restart ? d.delayMs : d.reason)),
      [1000, 2000, 4000, 8000, 10_000, 10_000],
    );
    assert.deepEqual(tracker.decide(true, 6000), {
      restart: false,
      reason: 'restart_limit_exceeded',
    });
  });

  it('forgets restarts older than the window', () => {
    const tracker = new RestartTracker({ ...DEFAULT_RESTART, maxRestarts: 2, windowMs: 10_000 });
    assert.equal(tracker.decide(true, 0).restart, true);
    assert.equal(tracker.decide(true, 1000).restart, true);
    assert.equal(tracker.decide(true, 2000).restart, false);
    const later = tracker.decide(true, 10_500);
    assert.deepEqual(later, { restart: true, delayMs: 2000, attempt: 2 });
  });

  it('on_failure leaves a clean exit alone; always restarts it; never restarts nothing', () => {
    assert.deepEqual(new RestartTracker(DEFAULT_RESTART).decide(false), {
      restart: false,
      reason: 'policy',
    });
    assert.equal(
      new RestartTracker({ ...DEFAULT_RESTART, policy: 'always' }).decide(false).restart,
      true,
    );
    assert.deepEqual(new RestartTracker({ ...DEFAULT_RESTART, policy: 'never' }).decide(true), {
      restart: false,
      reason: 'policy',
    });
  });

  it('allows only the transitions of the §11.2 state machine', () => {
    assert.equal(canTransition('registered', 'connecting'), true);
    assert.equal(canTransition('connecting', 'connected'), true);
    assert.equal(canTransition('connected', 'draining'), true);
    assert.equal(canTransition('draining', 'disconnected'), true);
    assert.equal(canTransition('error', 'restarting'), true);
    assert.equal(canTransition('registered', 'connected'), false);
    assert.equal(canTransition('disconnected', 'draining'), false);
  });
});
