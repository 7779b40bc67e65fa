/**
 * A delegated task's outcome as an MCP tool result: the agent's messages and artifacts as content
 * (text parts as text, data parts as JSON text, file parts as images, embedded resources or links),
 * and `_meta` with the agent, the task id and its state, which the audit record keeps. A task that
 * waits for input says so in words, with how to answer: the caller answers, never the kernel.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { A2A_META, type A2aCallFacts } from '../domain/a2aFacts';
import type { A2aMessage, A2aPart, A2aTask, AgentCardSummary } from './types';

type Content = CallToolResult['content'][number];

function partContent(part: A2aPart, where: string, index: number): Content | undefined {
  switch (part.kind) {
    case 'text':
      return part.text ? { type: 'text', text: part.text } : undefined;
    case 'data':
      return { type: 'text', text: JSON.stringify(part.data, null, 2) ?? 'null' };
    case 'file': {
      const mimeType = part.mimeType ?? 'application/octet-stream';
      const name = part.name ?? `file-${index + 1}`;
      if (part.uri) return { type: 'resource_link', uri: part.uri, name, mimeType };
      if (part.bytes === undefined) return undefined;
      if (mimeType.startsWith('image/')) return { type: 'image', data: part.bytes, mimeType };
      return {
        type: 'resource',
        resource: { uri: `${where}/${encodeURIComponent(name)}`, mimeType, blob: part.bytes },
      };
    }
  }
}

function sameMessage(a: A2aMessage, b: A2aMessage): boolean {
  if (a.messageId && b.messageId) return a.messageId === b.messageId;
  return JSON.stringify(a.parts) === JSON.stringify(b.parts);
}

/** The agent's messages since the caller's last one, the status message among them once. */
export function agentMessages(task: A2aTask): A2aMessage[] {
  const lastUser = task.history.map((m) => m.role).lastIndexOf('user');
  const messages = task.history.slice(lastUser + 1).filter((m) => m.role === 'agent');
  const status = task.statusMessage;
  if (status && status.role === 'agent' && !messages.some((m) => sameMessage(m, status)))
    messages.push(status);
  return messages;
}

function heading(name: string, task: A2aTask, timedOut: boolean): string {
  const where = `agent "${name}"${task.id ? `, task ${task.id}` : ''}`;
  if (timedOut)
    return `The delegation to ${where} timed out; the kernel cancelled the task (now ${task.state}).`;
  switch (task.state) {
    case 'input-required':
      return `The ${where} needs more input before it can go on. Its question follows. Ask the user, or answer it yourself only if you know the answer: call this tool again with task_id "${task.id}" and the answer as message.`;
    case 'auth-required':
      return `The ${where} needs authentication before it can go on; its words follow. The kernel does not sign in for it.`;
    case 'completed':
      return `The ${where} completed. What it sent back follows (the agent's words, not verified).`;
    default:
      return `The ${where} ended ${task.state}. What it sent back follows (the agent's words, not verified).`;
  }
}

export function delegationResult(
  card: AgentCardSummary,
  name: string,
  task: A2aTask,
  timedOut = false,
): CallToolResult {
  const where = `a2a://${encodeURIComponent(name)}/tasks/${encodeURIComponent(task.id || 'message')}`;
  const content: Content[] = [{ type: 'text', text: heading(name, task, timedOut) }];
  for (const message of agentMessages(task))
    message.parts.forEach((part, index) => {
      const item = partContent(part, where, index);
      if (item) content.push(item);
    });
  task.artifacts.forEach((artifact, a) => {
    if (artifact.name || artifact.description)
      content.push({
        type: 'text',
        text: `Artifact ${artifact.name ?? a + 1}${artifact.description ? `: ${artifact.description}` : ''}`,
      });
    artifact.parts.forEach((part, index) => {
      const item = partContent(part, `${where}/artifacts/${a + 1}`, index);
      if (item) content.push(item);
    });
  });
  const facts: A2aCallFacts = {
    agent: name,
    url: card.endpoint,
    dialect: card.dialect,
    task_id: task.id || undefined,
    context_id: task.contextId,
    state: task.state,
    ...(timedOut ? { timed_out: true } : {}),
  };
  const fine =
    task.state === 'completed' || task.state === 'input-required' || task.state === 'auth-required';
  return { content, isError: timedOut || !fine, _meta: { [A2A_META]: facts } };
}
