import { strict as assert } from 'node:assert';
import {
  createDiscoveryTools,
  KERNEL_DISCOVERY_TOOL_SCHEMAS,
  SessionToolCache,
  type CreationOutcome,
  type DiscoveryContext,
  type RequestParams,
  type ToolCreationOptions,
} from '../../../client/src/kernel/discovery';
import type { AuditEventInput } from '../../../client/src/kernel/audit/auditEvent';
import { corpusIndex } from './fixtures';

const gap = (
  capabilities: string[],
  extra: Partial<RequestParams['requirements']> = {},
): RequestParams => ({
  reason: 'capability_gap',
  context: 'needed for the task',
  requirements: { capabilities, ...extra },
});

describe('discovery: kernel tools', () => {
  const index = corpusIndex();
  const context = (extra: Partial<DiscoveryContext> = {}): DiscoveryContext => ({
    index,
    cache: new SessionToolCache(),
    ...extra,
  });

  it('exports the spec input schemas of the four tools', () => {
    assert.deepEqual(Object.keys(KERNEL_DISCOVERY_TOOL_SCHEMAS), [
      'mgp.tools.discover',
      'mgp.tools.request',
      'mgp.tools.session',
      'mgp.tools.session.evict',
    ]);
    assert.deepEqual(KERNEL_DISCOVERY_TOOL_SCHEMAS['mgp.tools.discover'].required, ['query']);
    assert.deepEqual(KERNEL_DISCOVERY_TOOL_SCHEMAS['mgp.tools.request'].required, [
      'reason',
      'context',
      'requirements',
    ]);
    assert.deepEqual(KERNEL_DISCOVERY_TOOL_SCHEMAS['mgp.tools.session.evict'].required, ['tools']);
  });

  it('discover: returns full schemas, scores, totals, strategy and time', async () => {
    const tools = createDiscoveryTools(context());
    const result = await tools.discover({ query: 'read file contents', max_results: 3 });
    assert.equal(result.tools.length, 3);
    assert.equal(result.search_strategy, 'keyword');
    assert.ok(result.total_available >= 3);
    assert.ok(result.query_time_ms >= 0);
    const first = result.tools[0];
    assert.equal(first.server_id, 'filesystem');
    assert.ok(first.inputSchema.properties);
    assert.ok(first.relevance_score > 0 && first.relevance_score <= 1);
    assert.equal(result.fallback_strategy, undefined);
    const semantic = await tools.discover({ query: 'read file contents', strategy: 'semantic' });
    assert.equal(semantic.search_strategy, 'semantic');
    assert.equal(semantic.fallback_strategy, 'keyword');
  });

  it('discover: returns fewer results when they would exceed the discovery reserve', async () => {
    const tools = createDiscoveryTools(
      context({ cache: new SessionToolCache({ budget: { discovery_reserve: 400 } }) }),
    );
    const result = await tools.discover({ query: 'scrape crawl website', max_results: 10 });
    assert.ok(result.tools.length < 10);
    assert.deepEqual(result.truncated, {
      returned: result.tools.length,
      matched: 10,
      reason: 'discovery_reserve',
    });
  });

  it('discover: rejects invalid parameters', async () => {
    const tools = createDiscoveryTools(context());
    await assert.rejects(tools.discover({} as never), /query/);
    await assert.rejects(tools.discover({ query: 'x', strategy: 'magic' as never }), /strategy/);
    await assert.rejects(
      tools.discover({ query: 'x', filter: { risk_level_max: 'low' as never } }),
      /risk_level_max/,
    );
  });

  it('request: fulfilled loads the tools into the session and counts the tokens added', () => {
    const ctx = context();
    const tools = createDiscoveryTools(ctx);
    const result = tools.request(gap(['geocode an address']));
    assert.equal(result.status, 'fulfilled');
    assert.deepEqual(
      result.tools_loaded.map((t) => t.tool_id),
      ['google-maps.maps_geocode'],
    );
    assert.ok(result.tools_loaded[0].inputSchema);
    assert.ok(result.context_tokens_added > 0);
    assert.equal(result.session_tools_count, 1);
    assert.deepEqual(tools.session().cached, ['google-maps.maps_geocode']);
    assert.equal(
      tools.request(gap(['geocode an address'])).context_tokens_added,
      0,
      'already loaded',
    );
  });

  it('request: partial, unavailable, pending_approval', () => {
    const tools = createDiscoveryTools(context());
    const partial = tools.request(gap(['post a slack message', 'zzqx frobnicate']));
    assert.equal(partial.status, 'partial');
    assert.deepEqual(partial.tools_unavailable, ['zzqx frobnicate']);
    assert.deepEqual(
      partial.tools_loaded.map((t) => t.tool_id),
      ['slack.slack_post_message'],
    );
    const none = tools.request(gap(['zzqx frobnicate']));
    assert.equal(none.status, 'unavailable');
    assert.deepEqual(none.tools_loaded, []);
    const guarded = createDiscoveryTools(
      context({ needsApproval: (t) => t.server_id === 'github' }),
    );
    const pending = guarded.request(gap(['merge a pull request', 'post a slack message']));
    assert.equal(pending.status, 'pending_approval');
    assert.deepEqual(
      pending.tools_pending_approval?.map((t) => t.tool_id),
      ['github.merge_pull_request'],
    );
    assert.deepEqual(
      pending.tools_loaded.map((t) => t.tool_id),
      ['slack.slack_post_message'],
    );
    assert.deepEqual(
      guarded.session().cached,
      ['slack.slack_post_message'],
      'tools awaiting approval are not loaded',
    );
  });

  it('request: never returns creating unless tool creation is enabled', () => {
    const generate = async () => ({ name: 'x', description: 'x', inputSchema: {}, code: 'x' });
    for (const toolCreation of [undefined, { enabled: false, generate }] as Array<
      ToolCreationOptions | undefined
    >) {
      const result = createDiscoveryTools(context({ toolCreation })).request(
        gap(['zzqx frobnicate']),
      );
      assert.equal(result.status, 'unavailable');
    }
    // Enabled but missing a guardrail (no audit sink): still never creating.
    const incomplete: ToolCreationOptions = {
      enabled: true,
      generate,
      validate: () => ({ passed: true }),
      register: () => {},
      unregister: () => {},
      approvalPolicy: 'auto_approve',
    };
    assert.equal(
      createDiscoveryTools(context({ toolCreation: incomplete })).request(gap(['zzqx frobnicate']))
        .status,
      'unavailable',
    );
  });

  it('request: creating runs the guardrails: strict validation, approval, experimental ephemeral tool, audit', async () => {
    const audits: AuditEventInput[] = [];
    const registered: string[] = [];
    let settle: (o: CreationOutcome) => void = () => {};
    const settled = new Promise<CreationOutcome>((resolve) => (settle = resolve));
    const levels: string[] = [];
    const toolCreation: ToolCreationOptions = {
      enabled: true,
      agentId: 'agent-7',
      generate: async (r) => ({
        name: 'frobnicate',
        description: r.capabilities.join(),
        inputSchema: { type: 'object' },
        code: 'return 1',
      }),
      validate: (_code, level) => (levels.push(level), { passed: true }),
      approve: async () => true,
      register: (t) => registered.push(`${t.name}:${t.trust_level}:${t.ephemeral}`),
      unregister: (name) => registered.push(`-${name}`),
      audit: (e) => audits.push(e),
      onSettled: (o) => settle(o),
    };
    const tools = createDiscoveryTools(context({ toolCreation }));
    assert.equal(
      tools.request(gap(['post a slack message'])).status,
      'fulfilled',
      'existing tools first',
    );
    const result = tools.request(gap(['zzqx frobnicate']));
    assert.equal(result.status, 'creating');
    assert.ok(result.creation_id);
    const outcome = await settled;
    assert.equal(outcome.status, 'registered');
    assert.deepEqual(levels, ['strict']);
    assert.deepEqual(registered, ['frobnicate:experimental:true']);
    assert.equal(audits.length, 1);
    assert.equal(audits[0].event_type, 'TOOL_CREATED_DYNAMIC');
    assert.equal(audits[0].actor.id, 'agent-7');
    assert.match(String(audits[0].details?.code_sha256), /^[0-9a-f]{64}$/);
    assert.equal(
      index.get('mgp.ephemeral.frobnicate'),
      undefined,
      'not persisted to the tool index',
    );
    tools.endSession();
    assert.deepEqual(registered, ['frobnicate:experimental:true', '-frobnicate']);
  });

  it('request: a generated tool that fails strict validation or approval is not registered, and is audited', async () => {
    for (const [validate, approve, expected] of [
      [() => ({ passed: false, violations: ['eval'] }), async () => true, 'rejected'],
      [() => ({ passed: true }), async () => false, 'denied'],
    ] as const) {
      const audits: AuditEventInput[] = [];
      const registered: string[] = [];
      let settle: (o: CreationOutcome) => void = () => {};
      const settled = new Promise<CreationOutcome>((resolve) => (settle = resolve));
      const toolCreation: ToolCreationOptions = {
        enabled: true,
        validate,
        approve,
        generate: async () => ({ name: 'bad', description: '', inputSchema: {}, code: 'eval(x)' }),
        register: (t) => registered.push(t.name),
        unregister: () => {},
        audit: (e) => audits.push(e),
        onSettled: (o) => settle(o),
      };
      createDiscoveryTools(context({ toolCreation })).request(gap(['zzqx frobnicate']));
      assert.equal((await settled).status, expected);
      assert.deepEqual(registered, []);
      assert.equal(audits.length, 1);
    }
  });

  it('session and evict: pinned tools stay, cached ones go', async () => {
    const ctx = context();
    ctx.cache.pin(index.get('memory.search_nodes')!);
    const tools = createDiscoveryTools(ctx);
    tools.request(gap(['geocode an address']));
    const before = tools.session();
    assert.deepEqual(before.pinned, ['memory.search_nodes']);
    assert.deepEqual(before.cached, ['google-maps.maps_geocode']);
    assert.ok(before.total_tokens > 0);
    assert.equal(before.max_tokens, 8000);
    const result = await tools.call('mgp.tools.session.evict', {
      tools: ['maps_geocode', 'memory.search_nodes'],
      reason: 'done',
    });
    assert.deepEqual(result, {
      evicted: ['google-maps.maps_geocode'],
      not_evicted: [{ tool: 'memory.search_nodes', reason: 'pinned' }],
      total_tokens: ctx.cache.pinnedTokens,
      max_tokens: 8000,
    });
    assert.deepEqual(tools.session().cached, []);
    await assert.rejects(tools.call('mgp.tools.nope', {}), /no discovery kernel tool/);
  });
});
