import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../repoRoot';
import { cliPath, GatewayWorkspace } from './support/gatewayProcess';
import {
  startScriptedModel,
  type ScriptedModel,
  type ScriptedModelRequest,
} from './support/kernelHarness';

// Two agent frameworks nobody here wrote, as applications use them, each behind `mgp serve`: the
// Vercel AI SDK (`@ai-sdk/mcp` + `generateText`, whose tool set is fixed for a run) and the OpenAI
// Agents SDK (`Agent` + `MCPServerStdio`). Each is driven by the scripted model; what reaches the
// model is what its requests carry (test/fixtures/clients/).
const root = repoRoot();
const node = JSON.stringify(process.execPath);
const example = JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'));
const paramsEcho = JSON.stringify(join(root, 'test/fixtures/servers/params-echo.js'));
const run = promisify(execFile);
const SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The example server (write_note allowed by config, delete_notes dangerous) beside a plain one. */
const config = (plainCommand: string) => `[[servers]]
id = "example"
command = ${node}
args = [${example}]
approved_tools = ["write_note"]
[servers.mgp]
permissions_required = ["memory.write"]

[[servers]]
id = "plain"
command = ${plainCommand}
args = [${paramsEcho}]
`;

/** Discover, call what was found through the meta-tool, then try a dangerous tool; then stop. */
const TURNS = [
  { tool_calls: [{ name: 'mgp_tools_discover', arguments: { query: 'write a note' } }] },
  {
    tool_calls: [
      {
        name: 'mgp_tools_call',
        arguments: {
          tool_id: 'example.write_note',
          arguments: { title: 'framework', body: 'through the kernel' },
        },
      },
    ],
  },
  {
    tool_calls: [
      { name: 'mgp_tools_call', arguments: { tool_id: 'example.delete_notes', arguments: {} } },
    ],
  },
  { content: 'Done.' },
];

const FRAMEWORKS = [
  { title: 'the AI SDK', driver: 'aiSdkAgent.mjs', identity: 'agent.gateway.ai-sdk-mcp-client' },
  { title: 'the OpenAI Agents SDK', driver: 'openaiAgent.mjs', identity: 'agent.gateway.mgp' },
];

interface DriverOutput {
  tools: string[];
  text: string;
}

async function drive(
  driver: string,
  workspace: GatewayWorkspace,
  model: ScriptedModel,
  serveArgs: string[] = [],
): Promise<DriverOutput> {
  const { stdout } = await run(process.execPath, [join(root, 'test/fixtures/clients', driver)], {
    cwd: workspace.dir,
    env: {
      ...workspace.env,
      MGP_CLI: cliPath,
      MGP_CONFIG: workspace.config,
      MGP_STATE_HOME: workspace.stateHome,
      MODEL_URL: model.url,
      ...(serveArgs.length ? { MGP_SERVE_ARGS: serveArgs.join(' ') } : {}),
    },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as DriverOutput;
}

/** The text of the tool results the model was sent, after the call whose id answers `pick`. */
function toolResultsSeen(requests: ScriptedModelRequest[]): string[] {
  const last = requests.at(-1);
  return (last?.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.stringify(message.content));
}

describe('agent frameworks behind mgp serve', function () {
  this.timeout(300_000);
  before(function () {
    if (!existsSync(join(root, 'tools/clients/node_modules/ai')))
      throw new Error('tools/clients is not installed: run scripts/setup.sh');
  });

  for (const framework of FRAMEWORKS) {
    describe(framework.title, () => {
      let workspace: GatewayWorkspace;
      let model: ScriptedModel | undefined;
      afterEach(async () => {
        await model?.close();
        model = undefined;
        workspace?.remove();
      });

      it('discovers a tool, calls it through the meta-tool, and its model reads a refusal', async () => {
        workspace = new GatewayWorkspace(config(node));
        model = await startScriptedModel({ turns: TURNS });
        const output = await drive(framework.driver, workspace, model);

        assert.ok(output.tools.includes('mgp_tools_call'), output.tools.join(', '));
        for (const request of model.requests)
          for (const tool of request.tools ?? []) assert.match(tool.function.name, SAFE_NAME);
        const seen = toolResultsSeen(model.requests);
        assert.equal(seen.length, 3, seen.join('\n'));
        assert.match(seen[0], /example\.write_note/, 'the discovery answer names the tool');
        const refusal = seen[2];
        assert.match(refusal, /delete_notes/);
        assert.match(refusal, /approv/i, 'the reason says an approval is needed');
        assert.doesNotMatch(refusal, /An error occurred/);

        const audit = await workspace.audit();
        const ran = audit.filter(
          (r) => r.event_type === 'TOOL_EXECUTED' && r.target.tool_name === 'write_note',
        );
        assert.equal(ran.length, 1);
        assert.equal(ran[0].actor.id, framework.identity);
        assert.ok(
          !audit.some(
            (r) => r.event_type === 'TOOL_EXECUTED' && r.target.tool_name === 'delete_notes',
          ),
          'the dangerous tool never ran',
        );
      });

      it('sees the same tool names across restarts with other servers up or down', async () => {
        const namesWith = async (plainCommand: string) => {
          workspace = new GatewayWorkspace(config(plainCommand));
          model = await startScriptedModel({ turns: [{ content: 'Nothing to do.' }] });
          try {
            const output = await drive(framework.driver, workspace, model, ['--expose', 'all']);
            return output.tools;
          } finally {
            await model.close();
            model = undefined;
            workspace.remove();
          }
        };
        const bothUp = await namesWith(node);
        const plainDown = await namesWith(JSON.stringify(join(root, 'no-such-command')));
        assert.ok(bothUp.includes('plain__echo'), bothUp.join(', '));
        assert.ok(!plainDown.includes('plain__echo'), plainDown.join(', '));
        assert.deepEqual(
          plainDown,
          bothUp.filter((name) => !name.startsWith('plain__')),
        );
        for (const name of bothUp) assert.match(name, SAFE_NAME);
      });
    });
  }
});
