import Ajv from 'ajv';
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Kernel } from '../kernel/kernel';
import { wireErrorOf } from '../kernel/mgp/mgpErrors';
import type { ServerManager } from '../kernel/serverManager';
import type { ServerNode } from './serversView';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; default?: unknown; enum?: unknown[]; items?: Schema };

const ajv = new Ajv({ allErrors: true, strict: false });

/** A starting value for each property: its default, the first enum value, or an empty value of its type. */
export function skeletonOf(schema: Schema | undefined): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (!(schema?.required ?? []).includes(name) && property.default === undefined) continue;
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    value[name] = property.default ?? property.enum?.[0] ?? ({ string: '', number: 0, integer: 0, boolean: false, array: [], object: {} } as Record<string, unknown>)[type ?? 'string'] ?? null;
  }
  return value;
}

/** Arguments checked against the tool's inputSchema before anything is sent; a message per problem. */
export function validateArguments(schema: object | undefined, text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!schema) return undefined;
  const validate = ajv.compile(schema);
  if (validate(value)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || 'arguments'} ${e.message}`).join('; ');
}

/** The result as Markdown: text, images, resources, structured content, and isError stated first. */
export function resultMarkdown(server: string, tool: string, result: CallToolResult & { truncated?: unknown }): string {
  const lines = [`# ${server} · ${tool}`, '', result.isError ? '> **The tool reported an error (isError).**' : '> Succeeded.', ''];
  for (const item of result.content ?? []) {
    if (item.type === 'text') lines.push('```text', item.text, '```', '');
    else if (item.type === 'image' || item.type === 'audio') lines.push(`*${item.type}: ${item.mimeType}, ${Math.round((item.data.length * 3) / 4)} bytes*`, '');
    else if (item.type === 'resource') lines.push(`**Resource** \`${item.resource.uri}\``, '', '```', 'text' in item.resource ? String(item.resource.text) : '(binary)', '```', '');
    else if (item.type === 'resource_link') lines.push(`**Resource link** [${item.name}](${item.uri})`, '');
  }
  if (result.structuredContent) lines.push('**Structured content**', '', '```json', JSON.stringify(result.structuredContent, null, 2), '```', '');
  if (result.truncated) lines.push('*The result was cut to the server\'s tool_result_max_chars.*');
  return lines.join('\n');
}

async function showMarkdown(content: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

export async function runTool(kernel: Kernel, target?: ServerNode): Promise<void> {
  const manager = kernel.manager;
  let serverId: string | undefined;
  let toolName: string | undefined;
  if (target?.kind === 'item' && target.group === 'tools') [serverId, toolName] = [target.serverId, target.name];
  else {
    const picked = await vscode.window.showQuickPick(manager.tools().map((t) => ({ label: t.qualifiedName, description: t.tool.description?.split('\n')[0], serverId: t.serverId, tool: t.tool.name })), { placeHolder: 'Tool to run', matchOnDescription: true });
    if (!picked) return;
    [serverId, toolName] = [picked.serverId, picked.tool];
  }
  const tool = manager.get(serverId).tools.find((t) => t.name === toolName);
  if (!tool) return;
  const input = await vscode.window.showInputBox({
    title: `Run ${serverId} · ${toolName}`,
    prompt: 'Arguments as JSON, checked against the tool\'s input schema. Descriptions come from the server and are untrusted.',
    value: JSON.stringify(skeletonOf(tool.inputSchema as Schema)),
    validateInput: (text) => validateArguments(tool.inputSchema, text),
  });
  if (input === undefined) return;
  try {
    const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Running ${serverId} · ${toolName}`, cancellable: true }, (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return kernel.call({
        serverId: serverId as string,
        toolName: toolName as string,
        args: JSON.parse(input) as Record<string, unknown>,
        signal: abort.signal,
        onProgress: (p) => progress.report({ message: p.message ?? (p.total ? `${p.progress}/${p.total}` : String(p.progress)) }),
      });
    });
    await showMarkdown(resultMarkdown(serverId, toolName, outcome.result));
  } catch (error) {
    const wire = wireErrorOf(error);
    void vscode.window.showErrorMessage(`${serverId} · ${toolName}: ${wire ? `${wire.code} ${wire.name ?? ''} — ` : ''}${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function readResource(manager: ServerManager, target?: ServerNode): Promise<void> {
  let serverId = target?.kind === 'item' ? target.serverId : undefined;
  let uri = target?.kind === 'item' ? target.uri : undefined;
  if (!serverId || !uri) {
    const picked = await vscode.window.showQuickPick(manager.list().flatMap((s) => s.resources.map((r) => ({ label: r.name, description: r.uri, serverId: s.id, uri: r.uri }))), { placeHolder: 'Resource to read' });
    if (!picked) return;
    [serverId, uri] = [picked.serverId, picked.uri];
  }
  const result = await manager.get(serverId).session().readResource(uri);
  await showMarkdown(result.contents.map((c) => `# ${c.uri}\n\n${'text' in c ? c.text : `*(binary, ${c.mimeType ?? 'unknown type'})*`}`).join('\n\n'));
}

export async function usePrompt(manager: ServerManager, target?: ServerNode): Promise<void> {
  let serverId = target?.kind === 'item' ? target.serverId : undefined;
  let name = target?.kind === 'item' ? target.name : undefined;
  if (!serverId || !name) {
    const picked = await vscode.window.showQuickPick(manager.list().flatMap((s) => s.prompts.map((p) => ({ label: p.name, description: p.description, serverId: s.id }))), { placeHolder: 'Prompt to use' });
    if (!picked) return;
    [serverId, name] = [picked.serverId, picked.label];
  }
  const prompt = manager.get(serverId).prompts.find((p) => p.name === name);
  const args: Record<string, string> = {};
  for (const argument of prompt?.arguments ?? []) {
    const value = await vscode.window.showInputBox({ title: `${name}: ${argument.name}`, prompt: argument.description, validateInput: (v) => (argument.required && !v ? `${argument.name} is required` : undefined) });
    if (value === undefined) return;
    if (value) args[argument.name] = value;
  }
  const result = await manager.get(serverId).session().getPrompt(name, args);
  await showMarkdown(result.messages.map((m) => `**${m.role}**\n\n${m.content.type === 'text' ? m.content.text : `*(${m.content.type})*`}`).join('\n\n---\n\n'));
}
