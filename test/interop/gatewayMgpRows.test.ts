import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../repoRoot';
import { GatewayWorkspace, httpGateway, type HttpGateway } from './support/gatewayProcess';
import { refusalResult } from './support/refusals';
import { eventually } from '../support/patience';

const node = JSON.stringify(process.execPath);
const example = JSON.stringify(join(repoRoot(), 'examples/servers/dist/mgp-example-server.js'));
const mgpProgress = JSON.stringify(join(repoRoot(), 'test/fixtures/servers/mgp-progress.js'));

/** An access grant on one kernel tool: §16.8's administrative tools answer an agent only with one. */
const grant = (agent: string, tool: string) =>
  `[[kernel.access_grants]]\nagent_id = "${agent}"\nserver_id = "mgp"\ntool_name = "${tool}"\npermission = "allow"\n`;

/** The MGP rows a gateway client meets through `mgp serve` (MGP §12.6, §13.2–13.3). */
describe('mgp serve: MGP events and progress reach the client that asked', function () {
  let workspace: GatewayWorkspace;
  let gateway: HttpGateway;

  before(async () => {
    workspace = new GatewayWorkspace(
      `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${example}]\n` +
        `[[servers]]\nid = "progress"\ncommand = ${node}\nargs = [${mgpProgress}]\n` +
        grant('agent.gateway.subscriber', 'mgp.events.subscribe') +
        grant('agent.gateway.other', 'mgp.events.unsubscribe'),
    );
    gateway = await httpGateway(workspace, []);
  });
  after(async () => {
    await gateway?.stop();
    workspace?.remove();
  });

  /** An SDK client of the gateway, keeping the MGP notifications it gets. */
  async function connect(name: string): Promise<{ client: Client; seen: JSONRPCNotification[] }> {
    const client = new Client({ name, version: '1.0.0' });
    const seen: JSONRPCNotification[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      seen.push(notification as JSONRPCNotification);
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        requestInit: { headers: { authorization: `Bearer ${gateway.token}` } },
      }),
    );
    return { client, seen };
  }

  const structured = (result: unknown) =>
    (result as CallToolResult).structuredContent as Record<string, unknown>;

  it('sends a subscribed event to the session that subscribed, and ends it when that session closes (§13.2)', async () => {
    const subscriber = await connect('Subscriber');
    const other = await connect('Other');
    try {
      const answer = structured(
        await subscriber.client.callTool({
          name: 'mgp.events.subscribe',
          arguments: { channels: ['security.*'] },
        }),
      );
      const id = answer.subscription_id as string;
      assert.match(id, /^sub-/);
      await other.client.callTool({
        name: 'emit_event',
        arguments: { channel: 'security.alert', severity: 'warning', data: { n: 1 } },
      });
      await eventually(
        () => subscriber.seen.some((n) => n.method === 'notifications/mgp.event'),
        'the event at the subscriber',
      );
      const event = subscriber.seen.find((n) => n.method === 'notifications/mgp.event')!;
      assert.deepEqual(
        [event.params?.subscription_id, event.params?.channel, event.params?.data],
        [id, 'security.alert', { n: 1 }],
      );
      assert.ok(typeof event.params?.timestamp === 'string');
      assert.deepEqual(
        other.seen.filter((n) => n.method === 'notifications/mgp.event'),
        [],
      );

      await (subscriber.client.transport as StreamableHTTPClientTransport).terminateSession();
      await subscriber.client.close();
      // The session is closed when its DELETE is answered: its subscription is gone by then.
      const late = await other.client.callTool({
        name: 'mgp.events.unsubscribe',
        arguments: { subscription_id: id },
      });
      assert.equal(structured(late).unsubscribed, false);
    } finally {
      await subscriber.client.close();
      await other.client.close();
    }
  });

  it('passes a plain call’s MGP progress on as MCP progress to a client that gave a progressToken (§12.6)', async () => {
    const { client } = await connect('Progress');
    try {
      const heard: { progress: number; total?: number; message?: string }[] = [];
      const result = await client.callTool({ name: 'work', arguments: { steps: 3 } }, undefined, {
        onprogress: (progress) => heard.push(progress),
      });
      assert.equal((result as CallToolResult).isError, undefined);
      assert.deepEqual(heard, [
        { progress: 1 / 3, total: 1, message: 'step 1 of 3' },
        { progress: 2 / 3, total: 1, message: 'step 2 of 3' },
        { progress: 1, total: 1, message: 'step 3 of 3' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('answers an agent the administrative kernel tools only with a grant, under opt-out too (§16.8)', async () => {
    const plain = await connect('Plain');
    const subscriber = await connect('Subscriber');
    try {
      for (const name of ['mgp.access.query', 'mgp.discovery.list', 'mgp.events.subscribe']) {
        const refusal = await refusalResult(
          plain.client.callTool({
            name,
            arguments: name === 'mgp.events.subscribe' ? { channels: ['*'] } : {},
          }),
        );
        assert.match(refusal.text, /administrative \(MGP §16\.8\)/, name);
      }
      const listed = (client: Client) =>
        client.listTools().then(({ tools }) => tools.map((tool) => tool.name));
      assert.ok(!(await listed(plain.client)).some((name) => name.startsWith('mgp_events_')));
      const granted = await listed(subscriber.client);
      assert.ok(granted.includes('mgp_events_subscribe'), JSON.stringify(granted));
      assert.ok(!granted.includes('mgp_events_unsubscribe'), JSON.stringify(granted));
      assert.ok(granted.includes('mgp_tools_discover'));
    } finally {
      await plain.client.close();
      await subscriber.client.close();
    }
  });
});
