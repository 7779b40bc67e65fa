import { strict as assert } from 'node:assert';
import { expandTemplate, templateVariables } from '../../client/src/kernel/connection/uriTemplates';
import {
  eventually,
  everythingServer,
  fixtureServer,
  node,
  startKernel,
  TestKernel,
} from './support/kernelHarness';

const everything = `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`;
const paginated = `[[servers]]\nid = "pages"\ncommand = ${node}\nargs = [${fixtureServer('paginated.js')}]\n`;

/** Starts a kernel that records the methods it sends to each server. */
async function tracedKernel(toml: string): Promise<{ t: TestKernel; sent: string[] }> {
  const sent: string[] = [];
  const t = await startKernel(toml, {
    trace: () => true,
    configure: (kernel) =>
      kernel.manager.bus.on('trace', (line) => {
        if (line.direction === 'send' && 'method' in line.message)
          sent.push(`${line.server_id} ${line.message.method}`);
      }),
  });
  return { t, sent };
}

describe('resources, templates, prompts and completion (server-everything)', function () {
  let t: TestKernel | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  it('completion/complete: prompt arguments, narrowed by the arguments already given', async () => {
    const traced = await tracedKernel(everything);
    t = traced.t;
    const ref = { type: 'ref/prompt' as const, name: 'completable-prompt' };
    const departments = await t.kernel.complete('everything', {
      ref,
      argument: { name: 'department', value: 'S' },
    });
    assert.deepEqual(departments.values, ['Sales', 'Support']);
    const names = await t.kernel.complete('everything', {
      ref,
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    assert.deepEqual(names.values, ['David', 'Eve', 'Frank']);
    assert.ok(traced.sent.includes('everything completion/complete'));
  });

  it('a template: its variables, completion for them, expanded and read', async () => {
    t = await startKernel(everything);
    const server = t.kernel.manager.get('everything');
    const template = server.resourceTemplates.find((r) => r.uriTemplate.includes('/text/'));
    assert.ok(template, server.resourceTemplates.map((r) => r.uriTemplate).join(', '));
    assert.deepEqual(templateVariables(template.uriTemplate), ['resourceId']);
    const suggested = await t.kernel.complete('everything', {
      ref: { type: 'ref/resource', uri: template.uriTemplate },
      argument: { name: 'resourceId', value: '7' },
    });
    assert.deepEqual(suggested.values, ['7']);
    const uri = expandTemplate(template.uriTemplate, { resourceId: '7' });
    assert.equal(uri, 'demo://resource/dynamic/text/7');
    const read = await t.kernel.readResource('everything', uri);
    assert.match(String((read.contents[0] as { text?: string }).text), /^Resource 7:/);
  });

  it('a server that does not declare completions is not asked', async () => {
    const traced = await tracedKernel(paginated);
    t = traced.t;
    const prompt = t.kernel.manager.get('pages').prompts[0];
    const answer = await t.kernel.complete('pages', {
      ref: { type: 'ref/prompt', name: prompt.name },
      argument: { name: 'anything', value: 'a' },
    });
    assert.deepEqual(answer, { values: [], hasMore: false });
    assert.ok(!traced.sent.some((m) => m.endsWith('completion/complete')), traced.sent.join(', '));
  });

  it('subscriptions are shared: subscribed once, unsubscribed when the last holder lets go', async () => {
    const traced = await tracedKernel(everything);
    t = traced.t;
    const server = t.kernel.manager.get('everything');
    const uri = server.resources[0].uri;
    const count = (method: string) =>
      traced.sent.filter((m) => m === `everything ${method}`).length;
    const updates: string[] = [];
    t.kernel.manager.bus.on('resourceUpdated', (u) => updates.push(u.uri));
    await t.kernel.subscribeResource('everything', uri);
    await t.kernel.subscribeResource('everything', uri);
    assert.equal(count('resources/subscribe'), 1);
    await t.kernel.unsubscribeResource('everything', uri);
    assert.equal(count('resources/unsubscribe'), 0);
    assert.deepEqual(server.subscribedUris, [uri]);
    await t.kernel.call({
      serverId: 'everything',
      toolName: 'toggle-subscriber-updates',
      args: {},
    });
    await eventually(() => updates.includes(uri), 'a notifications/resources/updated');
    await t.kernel.unsubscribeResource('everything', uri);
    assert.equal(count('resources/unsubscribe'), 1);
    assert.deepEqual(server.subscribedUris, []);
  });
});
