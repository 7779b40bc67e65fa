import { strict as assert } from 'node:assert';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { KernelError, SERVER_DRAINING } from '../../client/src/kernel/domain/errors';
import {
  categoryOf,
  KERNEL_MAX_RETRIES,
  RETRY_FLOOR_MS,
  maxRetriesOf,
  retryDelayMs,
  wireErrorOf,
} from '../../client/src/kernel/mgp/mgpErrors';
import {
  compareVersions,
  KERNEL_EXTENSIONS,
  mgpOffer,
  negotiate,
} from '../../client/src/kernel/mgp/negotiation';
import { RetriesExhausted, retryAfterFirst } from '../../client/src/kernel/pipeline/retry';

describe('MGP negotiation (§2)', () => {
  it('offers every extension the kernel implements, tool creation off', () => {
    const offer = mgpOffer();
    assert.deepEqual(offer.extensions, [...KERNEL_EXTENSIONS]);
    assert.deepEqual(offer.tool_creation, { enabled: false });
  });

  it("activates the intersection of ours and the server's", () => {
    const { mgp } = negotiate(mgpOffer(), {
      version: '0.5.2',
      extensions: ['security', 'streaming', 'teleportation'],
      permissions_required: ['shell.execute'],
      trust_level: 'standard',
      event_channels: ['system.heartbeat'],
    });
    assert.deepEqual([...(mgp?.extensions ?? [])], ['security', 'streaming']);
    assert.deepEqual(mgp?.permissionsRequired, ['shell.execute']);
    assert.deepEqual(mgp?.eventChannels, ['system.heartbeat']);
  });

  it('is plain MCP when the server does not answer with mgp', () => {
    assert.equal(negotiate(mgpOffer(), undefined).mgp, undefined);
  });

  it('logs a server that sends mgp unasked as a protocol violation and ignores it', () => {
    const outcome = negotiate(undefined, { version: '0.5.2', extensions: ['security'] });
    assert.equal(outcome.mgp, undefined);
    assert.match(outcome.notes[0].message, /protocol violation/);
    assert.equal(outcome.notes[0].level, 'error');
  });

  it('semver: the major must match; before 1.0 a minor mismatch warns and still connects', () => {
    assert.equal(compareVersions('0.5.2', '0.5.0'), 'compatible');
    const minor = negotiate(mgpOffer(), { version: '0.4.1', extensions: ['security'] });
    assert.ok(minor.mgp);
    assert.equal(minor.notes[0].level, 'warning');
    const major = negotiate(mgpOffer(), { version: '1.0.0', extensions: ['security'] });
    assert.equal(major.mgp, undefined);
    assert.match(major.notes[0].message, /major version mismatch/);
    assert.equal(negotiate(mgpOffer(), { version: 'latest', extensions: [] }).mgp, undefined);
  });
});

describe('MGP structured errors and retries (§14)', () => {
  it('reads codes and _mgp recovery data from wire errors and kernel errors alike', () => {
    const wire = wireErrorOf(
      new McpError(3000, 'slow down', {
        _mgp: {
          category: 'resource',
          retryable: true,
          retry_after_ms: 50,
          retry_strategy: 'fixed_delay',
          max_retries: 2,
          fallback_tool: 'echo',
        },
      }),
    );
    assert.equal(wire?.name, 'RATE_LIMITED');
    assert.equal(wire?.recovery?.fallback_tool, 'echo');
    const local = wireErrorOf(new KernelError('ServerDraining', 'draining', SERVER_DRAINING));
    assert.deepEqual(
      [local?.code, local?.name, local?.recovery?.category],
      [2001, 'SERVER_DRAINING', 'lifecycle'],
    );
    assert.equal(categoryOf(5002), 'external');
  });

  it('spaces retries by strategy and caps them', () => {
    assert.equal(retryDelayMs({ retry_after_ms: 200, retry_strategy: 'fixed_delay' }, 3), 200);
    assert.equal(
      retryDelayMs({ retry_after_ms: 200, retry_strategy: 'exponential_backoff' }, 3),
      800,
    );
    assert.equal(
      retryDelayMs({ retry_strategy: 'immediate', retry_after_ms: 0 }, 2),
      RETRY_FLOOR_MS,
      'never sooner than the kernel floor, whatever the server asks',
    );
    assert.equal(
      retryDelayMs({ retry_after_ms: 10_000_000, retry_strategy: 'exponential_backoff' }, 5),
      60_000,
    );
    assert.equal(maxRetriesOf({ retryable: false, max_retries: 5 }), 0);
    assert.equal(maxRetriesOf({ retryable: true, max_retries: 1e9 }), KERNEL_MAX_RETRIES);
    assert.equal(maxRetriesOf({ retryable: true, max_retries: 2 }), 2);
  });

  it('retries a retryable error up to max_retries, reporting each retry', async () => {
    let calls = 1; // the first attempt failed with `error`
    const retries: number[] = [];
    const error = new McpError(3000, 'busy', {
      _mgp: { retryable: true, retry_strategy: 'immediate', max_retries: 3 },
    });
    const { value, attempts } = await retryAfterFirst(
      async () => (++calls < 3 ? Promise.reject(error) : 'done'),
      { retrying: (attempt) => void retries.push(attempt) },
      error,
    );
    assert.deepEqual([value, attempts, retries], ['done', 3, [1, 2]]);
  });

  it('never retries an error that is not retryable', async () => {
    let calls = 0;
    const error = new McpError(5000, 'upstream broke', {
      _mgp: { retryable: false, fallback_tool: 'other' },
    });
    await assert.rejects(
      retryAfterFirst(
        async () => {
          calls++;
          throw error;
        },
        { retrying: () => undefined },
        error,
      ),
      /upstream broke/,
    );
    assert.equal(calls, 0);
  });

  it('gives up after max_retries and names the fallback tool', async () => {
    const error = new McpError(3000, 'busy', {
      _mgp: { retryable: true, retry_strategy: 'immediate', max_retries: 1, fallback_tool: 'echo' },
    });
    await assert.rejects(
      retryAfterFirst(() => Promise.reject(error), { retrying: () => undefined }, error),
      (e: unknown) =>
        e instanceof RetriesExhausted && e.attempts === 2 && e.fallbackTool === 'echo',
    );
  });
});
