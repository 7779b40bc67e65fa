import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { MgpKernelApi } from '../../../client/src/vscode/extension';
import { repoRoot } from '../../repoRoot';
import { waitForEvent, waitUntil } from './waitFor';

const EXTENSION_ID = 'mgp-kernel.mgp-kernel';

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the example workspace is open');
  return folder.uri.fsPath;
}

async function api(): Promise<MgpKernelApi> {
  const extension = vscode.extensions.getExtension<MgpKernelApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed`);
  return extension.activate();
}

describe('MGP Kernel in the extension host', () => {
  it('activates in the example workspace and reports its version', async () => {
    const extension = vscode.extensions.getExtension<MgpKernelApi>(EXTENSION_ID);
    assert.ok(extension);
    const kernel = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(kernel.version, extension.packageJSON.version);
  });

  it('registers every command its manifest contributes', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const contributed: string[] = extension?.packageJSON.contributes.commands.map(
      (c: { command: string }) => c.command,
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.ok(contributed.length >= 4);
    assert.deepEqual(
      contributed.filter((id) => !registered.has(id)),
      [],
    );
  });

  it('reads the servers of the example mgp.toml', async () => {
    const config = await (await api()).config();
    assert.deepEqual(
      config.servers.map((s) => s.id),
      ['example', 'everything', 'live'],
    );
    assert.equal(config.servers[0].source.line, 4);
    assert.deepEqual(config.problems, []);
  });

  it("starts the example workspace's servers once approved, and calls their tools", async () => {
    const kernel = await api();
    await kernel.settled();
    assert.deepEqual(
      kernel.servers.list().map((s) => [s.id, s.state]),
      [
        ['example', 'connected'],
        ['everything', 'connected'],
        ['live', 'connected'],
      ],
    );
    const names = kernel.servers.tools().map((t) => t.qualifiedName);
    assert.ok(
      names.includes('example.echo') && names.includes('everything.echo'),
      names.join(', '),
    );
    assert.ok(kernel.servers.get('example').resources.some((r) => r.uri === 'mgp-example://about'));
  });

  it("calls through the kernel's pipeline: MGP negotiated with the example server, the call audited on disk", async () => {
    const kernel = await api();
    await kernel.settled();
    assert.ok(
      kernel.kernel.mgp.active('example', 'security'),
      'security negotiated with the example server',
    );
    const outcome = await kernel.kernel.call({
      serverId: 'example',
      toolName: 'add',
      args: { a: 2, b: 40 },
    });
    assert.deepEqual(outcome.result.structuredContent, { sum: 42 });
    await kernel.auditTrail.flush();
    const records = await kernel.auditTrail.log.tail(50, { traceId: outcome.traceId });
    assert.deepEqual(
      records.map((r) => [r.event_type, r.actor.id]),
      [['TOOL_EXECUTED', 'agent.vscode']],
    );
    const ping = await kernel.kernel.call({
      serverId: 'mgp',
      toolName: 'mgp.health.ping',
      args: { server_id: 'everything' },
    });
    assert.equal((ping.result.structuredContent as { status: string }).status, 'healthy');
  });

  it('reloads the config when mgp.toml changes on disk', async () => {
    const kernel = await api();
    const changed = waitForEvent(
      kernel.onDidChangeConfig,
      (c) => c.servers.some((s) => s.id === 'added-by-test'),
      'the config to include added-by-test',
    );
    appendFileSync(
      join(workspaceRoot(), 'mgp.toml'),
      '\n[[servers]]\nid = "added-by-test"\nurl = "http://127.0.0.1:9/mcp"\n',
    );
    const config = await changed;
    assert.equal(config.servers.find((s) => s.id === 'added-by-test')?.transport, 'http');
  });

  it('starts the language server, which puts a TOML syntax error at its position', async () => {
    const folder = join(workspaceRoot(), 'broken');
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'mgp.toml');
    writeFileSync(file, '[[servers]]\nid = "unterminated\n');
    const uri = vscode.Uri.file(file);
    const published = waitForEvent(
      vscode.languages.onDidChangeDiagnostics,
      (e) =>
        e.uris.some((u) => u.toString() === uri.toString()) &&
        vscode.languages.getDiagnostics(uri).length > 0,
      'diagnostics for broken/mgp.toml',
    );
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'toml');
    await vscode.window.showTextDocument(document);
    await published;
    const [diagnostic] = vscode.languages.getDiagnostics(uri);
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diagnostic.range.start.line, 1);
    assert.equal(diagnostic.source, 'mgp');
    assert.match(diagnostic.message, /TOML syntax error/);
    assert.equal((await api()).languageServerState(), 'running');
  });

  it('ranks discovery by the embedding model the settings name (the semantic strategy), and by keywords without one', async function () {
    const kernel = await api();
    await kernel.settled();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fixture = require(join(repoRoot(), 'test/fixtures/models/embeddingModel.js')) as {
      startEmbeddingModel(
        o: object,
      ): Promise<{ url: string; requests: { model: string }[]; close(): Promise<void> }>;
    };
    const model = await fixture.startEmbeddingModel({});
    const settings = () => vscode.workspace.getConfiguration('mgp.models');
    const discover = async () =>
      (
        await kernel.kernel.call({
          serverId: 'mgp',
          toolName: 'mgp.tools.discover',
          args: { query: 'add two numbers', strategy: 'semantic' },
        })
      ).result.structuredContent as {
        search_strategy: string;
        fallback_strategy?: string;
        tools: { tool_id: string }[];
      };
    try {
      await settings().update('openaiCompatible.url', model.url, vscode.ConfigurationTarget.Global);
      await settings().update(
        'openaiCompatible.embeddingModel',
        'use',
        vscode.ConfigurationTarget.Global,
      );
      await waitUntil(
        () => kernel.kernel.discovery.semanticRanker === `use at ${model.url}`,
        'the embedding model from the settings',
      );
      const answer = await discover();
      assert.equal(answer.search_strategy, 'semantic');
      assert.equal(answer.fallback_strategy, undefined);
      assert.equal(answer.tools[0].tool_id, 'example.add');
      assert.ok(model.requests.length > 0 && model.requests.every((r) => r.model === 'use'));
    } finally {
      await settings().update(
        'openaiCompatible.embeddingModel',
        undefined,
        vscode.ConfigurationTarget.Global,
      );
      await settings().update('openaiCompatible.url', undefined, vscode.ConfigurationTarget.Global);
      await model.close();
    }
    await waitUntil(
      () => kernel.kernel.discovery.semanticRanker === undefined,
      'keywords only once the setting is cleared',
    );
    const offline = await discover();
    assert.equal(offline.search_strategy, 'semantic');
    assert.equal(offline.fallback_strategy, 'keyword');
    assert.ok(offline.tools.some((t) => t.tool_id === 'example.add'));
  });

  it('opens the About panel from its command', async () => {
    const aboutTab = () =>
      vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .find((tab) => tab.label === 'About MGP Kernel');
    const opened = waitForEvent(
      vscode.window.tabGroups.onDidChangeTabs,
      () => aboutTab() !== undefined,
      'an "About MGP Kernel" tab',
    );
    await vscode.commands.executeCommand('mgp.showAbout');
    if (!aboutTab()) await opened;
    const about = aboutTab();
    assert.ok(about?.input instanceof vscode.TabInputWebview);
    assert.match(about.input.viewType, /mgp\.about$/);
  });
});
