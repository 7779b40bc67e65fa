import { strict as assert } from 'node:assert';
import { CallClock } from '../../client/src/kernel/connection/callClock';

const TIMEOUT_MS = 20;

/**
 * Resolves when a call timer started before it would have fired: node runs timers of one duration
 * in the order they were started, so this one, started now, runs after every earlier one.
 */
const pastTheTimeout = () => new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS));

/** An answer the test ends when it likes. */
function heldAnswer(clock: CallClock): { end(): Promise<void> } {
  let release!: () => void;
  const answered = clock.whileAnswering(() => new Promise<void>((resolve) => (release = resolve)));
  return {
    end: () => {
      release();
      return answered;
    },
  };
}

function expiring(clock: CallClock): { expired: Promise<void>; fired(): boolean } {
  let fired = false;
  let done!: () => void;
  const expired = new Promise<void>((resolve) => (done = resolve));
  clock.start(TIMEOUT_MS, () => {
    fired = true;
    done();
  });
  return { expired, fired: () => fired };
}

describe("a server's call clock (the request timeout)", () => {
  it('runs out when the server keeps the kernel waiting', async () => {
    await expiring(new CallClock()).expired;
  });

  it('stands still while the kernel answers the server, then gives it the whole timeout again', async () => {
    const clock = new CallClock();
    const call = expiring(clock);
    const first = heldAnswer(clock);
    const second = heldAnswer(clock);
    await pastTheTimeout();
    await first.end();
    await pastTheTimeout();
    assert.equal(call.fired(), false, 'one answer is still being given');
    await second.end();
    await call.expired;
  });

  it('a call that starts while the kernel answers, or makes progress meanwhile, waits for the answer', async () => {
    const clock = new CallClock();
    const answer = heldAnswer(clock);
    const call = expiring(clock);
    let progressingFired = false;
    const progressing = clock.start(TIMEOUT_MS, () => (progressingFired = true));
    clock.progressed(progressing);
    await pastTheTimeout();
    assert.equal(call.fired(), false);
    assert.equal(progressingFired, false, 'progress does not start a clock that stands still');
    progressing.stop();
    await answer.end();
    await call.expired;
  });

  it('a stopped timer never fires, and an answer that fails still starts the clock again', async () => {
    const clock = new CallClock();
    clock.start(TIMEOUT_MS, () => assert.fail('the call had ended')).stop();
    const call = expiring(clock);
    await assert.rejects(
      clock.whileAnswering(() => Promise.reject(new Error('no model'))),
      /no model/,
    );
    await call.expired;
  });
});
