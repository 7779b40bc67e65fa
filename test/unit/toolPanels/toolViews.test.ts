import { strict as assert } from 'node:assert';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type * as Budget from '../../../media/src/discovery/budget';
import type * as Output from '../../../media/src/streams/output';
import type { SessionView } from '@shared/discoveryMessages';
import {
  categoryViews,
  discoveryResultView,
  sessionView,
} from '../../../client/src/vscode/discovery/discoveryViews';
import {
  errorView,
  resultView,
  securityView,
  streamView,
  toolView,
} from '../../../client/src/vscode/runTool/toolViews';
import { streamIdOf, toolKeyOf } from '../../../client/src/vscode/runTool/commandArgs';
import { blockOf } from '../../../client/src/vscode/runTool/runOutcome';
import { SessionToolCache, toEntry } from '../../../client/src/kernel/discovery';
import { KernelError, refusedBy } from '../../../client/src/kernel/domain/errors';
import type { KernelToolEntry } from '../../../client/src/kernel/kernel';
import type { ToolCallOutcome } from '../../../client/src/kernel/pipeline/types';
import { effectiveSecurity } from '../../../client/src/kernel/security/effectiveSecurity';
import { browserModule } from './browserModule';

const { budgetSegments } = browserModule<typeof Budget>('media/src/discovery/budget.ts');
const { splitForSegments, segmentsToDrop, RateMeter } = browserModule<typeof Output>(
  'media/src/streams/output.ts',
);

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function outcome(result: Record<string, unknown>): ToolCallOutcome {
  return {
    result: result as never,
    traceId: 'trace-1',
    serverId: 'example',
    toolName: 't',
    attempts: 1,
    durationMs: 12,
  };
}

describe('tool panels: what the panels are shown', () => {
  it("shows the effective risk with its source, and the server's differing claim", () => {
    const lying = {
      name: 'peek_notes',
      inputSchema: { type: 'object' },
      security: { risk_level: 'safe', side_effects: [] },
    };
    const security = effectiveSecurity(lying as never, {
      risk_level: 'dangerous',
      side_effects: ['database'],
    });
    const view = securityView(security);
    assert.equal(view.risk, 'dangerous');
    assert.equal(view.riskSource, 'config');
    assert.equal(view.serverClaim, 'safe');
    assert.deepEqual(view.sideEffects, ['database']);
    const honest = securityView(
      effectiveSecurity(
        {
          name: 'echo',
          inputSchema: { type: 'object' },
          security: { risk_level: 'safe' },
        } as never,
        undefined,
      ),
    );
    assert.equal(honest.serverClaim, undefined);
  });

  it('marks kernel tools as never streaming', () => {
    const entry = {
      serverId: 'mgp',
      name: 'mgp.tools.session',
      tool: { name: 'mgp.tools.session', inputSchema: { type: 'object' } },
      security: { risk_level: 'safe', permissions_required: [], side_effects: [], sources: {} },
      kernel: true,
    } as unknown as KernelToolEntry;
    assert.equal(toolView(entry, true).streaming, false);
  });

  it('renders each kind of content distinctly, images only where the panel allows them', () => {
    const result = {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'image', mimeType: 'image/png', data: 'not base64!' },
        { type: 'image', mimeType: 'text/html', data: PNG },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        {
          type: 'resource',
          resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' },
        },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAAAA==' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c', description: 'a link' },
      ],
      structuredContent: { sum: 5 },
      isError: false,
      truncated: { originalChars: 100, keptChars: 50 },
    };
    const view = resultView(outcome(result), { images: true });
    assert.deepEqual(
      view.items.map((i) => i.kind),
      ['text', 'image', 'image', 'image', 'audio', 'resource', 'resource', 'resource_link'],
    );
    const images = view.items.filter((i) => i.kind === 'image') as {
      data?: string;
      bytes: number;
    }[];
    assert.equal(images[0].data, PNG);
    assert.equal(images[0].bytes, 70);
    assert.equal(images[1].data, undefined, 'data that is not base64 is not shown');
    assert.equal(images[2].data, undefined, 'only image types are shown');
    assert.deepEqual(view.items[6], { kind: 'resource', uri: 'file:///b.bin', bytes: 4 });
    assert.equal(view.structured, '{\n  "sum": 5\n}');
    assert.deepEqual(view.truncated, { originalChars: 100, keptChars: 50 });
    assert.equal(view.isError, false);
    assert.equal(view.traceId, 'trace-1');
    const withoutImages = resultView(outcome(result), { images: false });
    assert.equal((withoutImages.items[1] as { data?: string }).data, undefined);
  });

  it('states isError, cancellation and streaming', () => {
    assert.equal(
      resultView(outcome({ content: [], isError: true }), { images: false }).isError,
      true,
    );
    const cancelled = resultView(
      outcome({ content: [{ type: 'text', text: 'part' }], _mgp: { cancelled: true } }),
      { images: false },
    );
    assert.equal(cancelled.cancelled, true);
    assert.equal(
      resultView(outcome({ content: [], _mgp: { streamed: true } }), { images: false }).streamed,
      true,
    );
  });

  it('names MGP errors by code and name, local ones by their word', () => {
    assert.deepEqual(
      errorView(new KernelError('PermissionDenied' as never, 'the operator denied it', 1000)),
      {
        code: 1000,
        name: 'PERMISSION_DENIED',
        message: 'the operator denied it',
        block: { check: 'Approval', section: 'MGP §3, §4.3', why: 'the operator denied it' },
      },
    );
    assert.deepEqual(errorView(new McpError(4000, 'bad args')), {
      code: 4000,
      name: 'INVALID_TOOL_ARGS',
      message: 'bad args',
    });
    assert.deepEqual(errorView(new KernelError('NotConnected', 'example is not connected')), {
      name: 'NotConnected',
      message: 'example is not connected',
    });
    assert.deepEqual(errorView(new Error('boom')), { message: 'boom' });
  });

  it("tells the kernel's refusals (by check) from the server's errors, which are never blocks", () => {
    const denied = new KernelError('PermissionDenied', 'needs memory.write', 1000, {
      _mgp: { details: { permissions: ['memory.write'] } },
    });
    assert.deepEqual(blockOf(denied), {
      check: 'Permissions',
      section: 'MGP §3',
      why: 'needs memory.write',
    });
    assert.equal(
      blockOf(new KernelError('AccessDenied', 'no access', 1001))?.check,
      'Access control',
    );
    assert.equal(blockOf(new McpError(1000, 'the server says no')), undefined);
    assert.equal(blockOf(new McpError(1010, 'the server validated')), undefined);
    assert.equal(blockOf(new KernelError('Timeout', 'too slow')), undefined);
    assert.equal(blockOf(new KernelError('UnknownTool', 'gone', 4001)), undefined);
  });

  it('names the check the refusal itself names, its section kept for the tooltip', () => {
    // MCPL §6.6's refusal is a PermissionDenied with MCPL's own code: by its code alone it would
    // read as an approval the person refused.
    const featureSetOff = refusedBy(
      'mcpl.feature_set',
      new KernelError('PermissionDenied', 'files.annotate is switched off', -32001),
    );
    assert.deepEqual(blockOf(featureSetOff), {
      check: 'Feature set switch',
      section: 'MCPL §6.6',
      why: 'files.annotate is switched off',
    });
    const turnedOff = refusedBy('turned_off', new KernelError('ToolDisabled', 'off', 4002));
    assert.equal(blockOf(turnedOff)?.check, 'Your switch for this tool');
    const approval = refusedBy('approval', new KernelError('PermissionDenied', 'denied', 1000));
    assert.equal(blockOf(approval)?.check, 'Approval');
  });

  it("sends a stream's tail and its whole length", () => {
    const snapshot = {
      id: 's1',
      serverId: 'example',
      toolName: 'stream_text',
      traceId: 't',
      state: 'running' as const,
      startedAt: 1,
      chunks: 3,
      duplicates: 0,
      outOfOrder: 0,
      text: 'abcdefghij',
    };
    const view = streamView(snapshot, 4);
    assert.equal(view.text, 'ghij');
    assert.equal(view.textLength, 10);
    assert.equal(streamView(snapshot, 0).text, '');
  });

  it('takes a tool from the Servers view or from { serverId, toolName }', () => {
    assert.deepEqual(
      toolKeyOf({ kind: 'item', group: 'tools', serverId: 'example', name: 'add' }),
      { serverId: 'example', toolName: 'add' },
    );
    assert.deepEqual(toolKeyOf({ serverId: 'example', toolName: 'add' }), {
      serverId: 'example',
      toolName: 'add',
    });
    assert.equal(
      toolKeyOf({ kind: 'item', group: 'resources', serverId: 'example', name: 'x' }),
      undefined,
    );
    assert.equal(toolKeyOf(undefined), undefined);
    assert.equal(streamIdOf({ streamId: 'abc' }), 'abc');
    assert.equal(streamIdOf({ streamId: 3 }), undefined);
  });
});

describe('tool panels: discovery views and the token budget', () => {
  const add = toEntry(
    'example',
    {
      name: 'add',
      description: 'Adds two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
      security: { risk_level: 'safe', permissions_required: [], side_effects: [] },
    },
    'connected',
  );
  const del = toEntry(
    'example',
    {
      name: 'delete_notes',
      description: 'Deletes notes',
      inputSchema: { type: 'object' },
      security: {
        risk_level: 'dangerous',
        permissions_required: ['memory.write'],
        side_effects: ['database'],
      },
    },
    'connected',
  );

  it('reports the session cache with tokens against the budget', () => {
    const cache = new SessionToolCache({
      budget: {
        max_tokens: 8000,
        pinned_reserve: 2000,
        discovery_reserve: 3000,
        cache_limit: 3000,
      },
    });
    cache.pin(add);
    cache.use(del);
    const view = sessionView(cache);
    assert.deepEqual(
      view.pinned.map((t) => t.toolId),
      ['example.add'],
    );
    assert.deepEqual(
      view.cached.map((t) => t.toolId),
      ['example.delete_notes'],
    );
    assert.equal(view.pinnedTokens, cache.tokensOf(add));
    assert.equal(view.cachedTokens, cache.tokensOf(del));
    assert.equal(view.cacheLimit, 3000);
    assert.ok(view.pinnedTokens > 0);
  });

  it('lays out the budget bar: pinned area, cache, discovery reserve, unused', () => {
    const s: SessionView = {
      pinned: [],
      cached: [],
      pinnedTokens: 500,
      cachedTokens: 1500,
      maxTokens: 8000,
      pinnedReserve: 2000,
      discoveryReserve: 3000,
      cacheLimit: 2000,
    };
    assert.deepEqual(budgetSegments(s), [
      { key: 'pinned', width: 0.25, fill: 0.25 },
      { key: 'cache', width: 0.25, fill: 0.75 },
      { key: 'discovery', width: 0.375, fill: 0 },
      { key: 'free', width: 0.125, fill: 0 },
    ]);
    const over = budgetSegments({ ...s, pinnedTokens: 4000, cacheLimit: 1000 });
    assert.deepEqual(
      over.map((x) => [x.key, x.width]),
      [
        ['pinned', 0.5],
        ['cache', 0.125],
        ['discovery', 0.375],
      ],
      'pinned tools over their reserve shrink the cache',
    );
  });

  it('joins a discovery answer with effective security, tokens and the cache', () => {
    const cache = new SessionToolCache();
    cache.pin(add);
    const listed = {
      serverId: 'example',
      name: 'add',
      tool: { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object' } },
      security: {
        risk_level: 'safe',
        permissions_required: [],
        side_effects: [],
        sources: { risk_level: 'server' },
      },
      kernel: false,
    } as unknown as KernelToolEntry;
    const result = {
      tools: [
        {
          tool_id: 'example.add',
          name: 'add',
          server_id: 'example',
          description: 'Adds two numbers',
          relevance_score: 0.91,
          inputSchema: { type: 'object' },
          categories: ['read'],
        },
        {
          tool_id: 'gone.x',
          name: 'x',
          server_id: 'gone',
          description: 'from a server now down',
          relevance_score: 0.2,
          inputSchema: { type: 'object' },
          categories: [],
          security: {
            risk_level: 'dangerous' as const,
            permissions_required: [],
            side_effects: [],
          },
        },
      ],
      total_available: 7,
      search_strategy: 'semantic' as const,
      fallback_strategy: 'keyword' as const,
      query_time_ms: 0.42,
    };
    const view = discoveryResultView(result, {
      tools: [listed],
      cache,
      entry: (id) => (id === 'example.add' ? add : undefined),
      streaming: () => true,
    });
    assert.equal(view.fallbackStrategy, 'keyword');
    assert.equal(view.totalAvailable, 7);
    const [found, gone] = view.tools;
    assert.equal(found.pinned, true);
    assert.equal(found.tokens, cache.tokensOf(add));
    assert.equal(found.tool.security.riskSource, 'server');
    assert.equal(found.tool.streaming, true);
    assert.equal(gone.connected, false);
    assert.equal(gone.tool.security.risk, 'dangerous');
    assert.ok(categoryViews().some((c) => c.name === 'filesystem'));
  });
});

describe("tool panels: the Streaming panel's text segments and rate", () => {
  it('appends to the last segment until it is full, then ends it after a newline', () => {
    assert.deepEqual(splitForSegments(0, 'hello', 16), ['hello']);
    assert.deepEqual(splitForSegments(10, 'ab\ncd ef gh', 16), ['ab\n', 'cd ef gh']);
    assert.deepEqual(
      splitForSegments(10, 'abc def ghi', 16),
      ['abc def ghi'],
      'without a newline the segment grows',
    );
    assert.deepEqual(
      splitForSegments(10, 'abc def ghi jkl', 16, 20),
      ['abc def ', 'ghi jkl'],
      'until its maximum, then it ends after a space',
    );
    const long = 'x'.repeat(50);
    const pieces = splitForSegments(0, long, 16, 32);
    assert.equal(pieces.join(''), long, 'nothing is lost');
    assert.deepEqual(
      pieces.map((p) => p.length),
      [32, 18],
      'no space: cut at the maximum',
    );
    assert.deepEqual(
      splitForSegments(40, 'abc', 16, 32),
      ['', 'abc'],
      'a segment already over its maximum takes nothing more',
    );
  });

  it('drops old segments past the cap, always keeping the last', () => {
    assert.equal(segmentsToDrop([10, 10, 10], 25), 1);
    assert.equal(segmentsToDrop([10, 10, 10], 30), 0);
    assert.equal(segmentsToDrop([100], 10), 0);
  });

  it('measures chunks per second over the last second, falling to zero when chunks stop', () => {
    const meter = new RateMeter(1000);
    for (let t = 0; t <= 2000; t += 16) meter.add(t, t * 10);
    assert.ok(Math.abs(meter.rate(2000) - 10_000) < 200, String(meter.rate(2000)));
    assert.ok(meter.rate(5000) < 10, 'stopped');
  });

  it('shows the rate of a stream slower than the window between its chunks, not zero', () => {
    const meter = new RateMeter(1000);
    for (let t = 0, chunks = 1; t <= 6000; t += 1500, chunks += 1) meter.add(t, chunks);
    for (const now of [6100, 6800, 7400]) {
      const rate = meter.rate(now);
      assert.ok(Math.abs(rate - 1000 / 1500) < 0.05, `${now}: ${rate}`);
    }
    assert.equal(meter.rate(9100), 0, 'quiet for twice its interval');
    const starting = new RateMeter(1000);
    starting.add(0, 1);
    assert.equal(starting.rate(500), 0, 'one sample tells no rate');
    starting.add(1500, 2);
    assert.ok(Math.abs(starting.rate(1600) - 1000 / 1600) < 0.01);
  });
});
