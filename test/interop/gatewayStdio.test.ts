import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
  ElicitRequest,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../repoRoot';
import { refusalResult } from './support/refusals';
import { GatewayWorkspace, nextEvent, stdioGateway } from './support/gatewayProcess';

const root = repoRoot();
const node = JSON.stringify(process.execPath);
const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
const paramsEcho = JSON.stringify(join(root, 'test/fixtures/servers/params-echo.js'));

/**
 * The example server (its write_note approved, and the MGP permission it needs granted, by config:
 * nobody is asked), and a plain MCP server whose `echo` the config calls dangerous.
 */
const CONFIG = `[[servers]]
id = "example"
command = ${node}
args = [${example}]
approved_tools = ["write_note"]
[servers.mgp]
permissions_required = ["memory.write"]

[[servers]]
id = "plain"
command = ${node}
args = [${paramsEcho}]
[servers.tools.echo]
risk_level = "dangerous"
`;

describe('mgp serve over stdio: the kernel as an MCP server', function () {
  this.timeout(60000);
  let workspace: GatewayWorkspace;

  before(() => {
    workspace = new GatewayWorkspace(CONFIG);
  });
  after(() => workspace.remove());

  it('lists the meta-tools by default, never the administrative kernel tools', async () => {
    const gateway = await stdioGateway(workspace, []);
    try {
      assert.equal(gateway.client.getServerVersion()?.name, 'mgp-kernel');
      const capabilities = gateway.client.getServerCapabilities();
      assert.equal(capabilities?.tools?.listChanged, true);
      assert.ok(capabilities?.logging && capabilities.resources && capabilities.prompts);
      const names = (await gateway.client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(names.sort(), [
        'mgp_tools_call',
        'mgp_tools_discover',
        'mgp_tools_request',
        'mgp_tools_session',
        'mgp_tools_session_evict',
      ]);
      const admin = await refusalResult(
        gateway.client.callTool({
          name: 'mgp.access.grant',
          arguments: {
            entry_type: 'server_grant',
            agent_id: 'x',
            server_id: 'example',
            permission: 'allow',
          },
        }),
      );
      assert.equal(admin.code, 1001);
      assert.match(
        admin.violations[0],
        /agent\.gateway\.gateway-test may not use mgp\.access\.grant/,
      );
    } finally {
      await gateway.close();
    }
  });

  it('adds what a discovery finds to the list (list_changed), and calls it as agent.gateway.<client>', async () => {
    const gateway = await stdioGateway(workspace, [], { name: 'Claude Code' });
    try {
      await gateway.client.listTools();
      const changed = nextEvent<void>((done) =>
        gateway.client.setNotificationHandler(ToolListChangedNotificationSchema, () => done()),
      );
      const found = await gateway.client.callTool({
        name: 'mgp.tools.discover',
        arguments: { query: 'write a note' },
      });
      const ids = (found.structuredContent as { tools: { tool_id: string }[] }).tools.map(
        (t) => t.tool_id,
      );
      assert.ok(ids.includes('example.write_note'), ids.join(', '));
      await changed;
      const names = (await gateway.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('example__write_note'), names.join(', '));
      const written = await gateway.client.callTool({
        name: 'example__write_note',
        arguments: { title: 'gateway', body: 'through the kernel' },
      });
      assert.notEqual(written.isError, true, JSON.stringify(written));
    } finally {
      await gateway.close();
    }
    const executed = (await workspace.audit()).filter(
      (r) => r.event_type === 'TOOL_EXECUTED' && r.target.tool_name === 'write_note',
    );
    assert.equal(executed.length, 1);
    assert.deepEqual(executed[0].actor, { type: 'agent', id: 'agent.gateway.claude-code' });
    assert.equal(executed[0].result, 'SUCCESS');
  });

  it('calls a discovered tool by its id through mgp.tools.call, for a client that never re-lists', async () => {
    const gateway = await stdioGateway(workspace, [], { name: 'fixed-list' });
    try {
      const listed = (await gateway.client.listTools()).tools.map((t) => t.name);
      assert.ok(!listed.includes('example__write_note') && listed.includes('mgp_tools_call'));
      const found = await gateway.client.callTool({
        name: 'mgp.tools.discover',
        arguments: { query: 'write a note' },
      });
      const ids = (found.structuredContent as { tools: { tool_id: string }[] }).tools.map(
        (t) => t.tool_id,
      );
      assert.ok(ids.includes('example.write_note'), ids.join(', '));
      const written = await gateway.client.callTool({
        name: 'mgp.tools.call',
        arguments: {
          tool_id: 'example.write_note',
          arguments: { title: 'meta', body: 'called by id' },
        },
      });
      assert.notEqual(written.isError, true, JSON.stringify(written));
      const bad = await refusalResult(
        gateway.client.callTool({ name: 'mgp.tools.call', arguments: { arguments: {} } }),
      );
      assert.equal(bad.code, 4000);
      const unknown = await refusalResult(
        gateway.client.callTool({ name: 'mgp.tools.call', arguments: { tool_id: 'no.such' } }),
      );
      assert.equal(unknown.code, 4001);
    } finally {
      await gateway.close();
    }
    const executed = (await workspace.audit()).filter(
      (r) =>
        r.event_type === 'TOOL_EXECUTED' &&
        r.target.tool_name === 'write_note' &&
        r.actor.id === 'agent.gateway.fixed-list',
    );
    assert.equal(executed.length, 1);
  });

  describe('approvals asked of the MCP client through elicitation', () => {
    function answering(decisions: string[], asked: ElicitRequest['params'][]) {
      return {
        capabilities: { elicitation: {} },
        setUp: (client: import('@modelcontextprotocol/sdk/client/index.js').Client) =>
          client.setRequestHandler(ElicitRequestSchema, async (request) => {
            asked.push(request.params);
            return { action: 'accept', content: { decision: decisions.shift() ?? 'deny' } };
          }),
      };
    }

    it('runs a dangerous tool once the client allows it, showing what it is about to run', async () => {
      const asked: ElicitRequest['params'][] = [];
      const gateway = await stdioGateway(workspace, [], answering(['once'], asked));
      try {
        const result = await gateway.client.callTool({
          name: 'plain.echo',
          arguments: { text: 'approved' },
        });
        assert.notEqual(result.isError, true);
        assert.match(JSON.stringify(result.structuredContent), /approved/);
      } finally {
        await gateway.close();
      }
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /plain wants to run its tool "echo"/);
      assert.match(asked[0].message, /Risk: dangerous/);
      assert.match(asked[0].message, /"text": "approved"/);
      assert.match(asked[0].message, /written by the server \(untrusted\)/);
      const form = asked[0];
      assert.ok('requestedSchema' in form, 'a form elicitation');
      const decision = form.requestedSchema.properties.decision as { enum?: string[] };
      assert.deepEqual(decision.enum, ['once', 'session', 'deny']);
      const granted = (await workspace.audit()).filter(
        (r) => r.event_type === 'PERMISSION_GRANTED' && r.target.tool_name === 'echo',
      );
      assert.equal(granted.at(-1)?.details.requested_by, 'agent.gateway.gateway-test');
    });

    it('refuses the call when the client denies it (MGP 1000)', async () => {
      const asked: ElicitRequest['params'][] = [];
      const gateway = await stdioGateway(workspace, [], answering(['deny'], asked));
      try {
        const error = await refusalResult(
          gateway.client.callTool({ name: 'plain.echo', arguments: { text: 'no' } }),
        );
        assert.equal(error.code, 1000);
        assert.match(error.reason, /Refused by the kernel's approval \(MGP §3, §4\.3\)/);
        assert.match(error.next_step, /not approved/);
        assert.equal(asked.length, 1);
        const unknown = await refusalResult(
          gateway.client.callTool({ name: 'no.such_tool', arguments: {} }),
        );
        assert.equal(unknown.code, 4001);
        assert.match(unknown.violations[0], /no tool named "no\.such_tool"/);
      } finally {
        await gateway.close();
      }
    });

    it('asks once for a session approval', async () => {
      const asked: ElicitRequest['params'][] = [];
      const gateway = await stdioGateway(workspace, [], answering(['session'], asked));
      try {
        for (const text of ['one', 'two'])
          await gateway.client.callTool({ name: 'plain.echo', arguments: { text } });
        assert.equal(asked.length, 1);
      } finally {
        await gateway.close();
      }
    });

    it('denies what needs approval when the client cannot be asked, and says why', async () => {
      const gateway = await stdioGateway(workspace, []);
      try {
        const error = await refusalResult(
          gateway.client.callTool({ name: 'plain.echo', arguments: { text: 'unasked' } }),
        );
        assert.equal(error.code, 1000);
        const safe = await gateway.client.callTool({
          name: 'example.echo',
          arguments: { text: 'safe needs no approval' },
        });
        assert.notEqual(safe.isError, true);
        assert.match(
          gateway.stderr(),
          /plain\.echo needs approval and its MCP client cannot be asked/,
        );
      } finally {
        await gateway.close();
      }
    });
  });
});
