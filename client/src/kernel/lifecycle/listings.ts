import type { Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ListKind } from '../connection/clientFeatures';
import type { ListedTool, ServerConnection } from '../connection/serverConnection';

/** What a connected server offers, as its last lists said. */
export interface Listings {
  tools: ListedTool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
}

/** Every list, once connected. Templates are optional: a server that fails them offers none. */
export async function listEverything(connection: ServerConnection): Promise<Listings> {
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    connection.listTools(),
    connection.listResources(),
    connection.listResourceTemplates().catch(() => []),
    connection.listPrompts(),
  ]);
  return { tools, resources, resourceTemplates, prompts };
}

/** The lists one `notifications/…/list_changed` invalidated, listed again. */
export async function listAgain(
  connection: ServerConnection,
  kind: ListKind,
): Promise<Partial<Listings>> {
  if (kind === 'tools') return { tools: await connection.listTools() };
  if (kind === 'prompts') return { prompts: await connection.listPrompts() };
  const [resources, resourceTemplates] = await Promise.all([
    connection.listResources(),
    connection.listResourceTemplates().catch(() => []),
  ]);
  return { resources, resourceTemplates };
}
