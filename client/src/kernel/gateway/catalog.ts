/**
 * Resources, resource templates, prompts and completions through the gateway. Resources keep their
 * URIs (a URI names the same thing wherever it is read) and a read goes to the server that lists the
 * URI, or whose template matches it. Prompts are named like tools (names.ts). Each read and each prompt
 * is checked against the client's access (MGP §5) and recorded in the audit trail under its identity.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CompleteRequest,
  CompleteRequestSchema,
  CompleteResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  Prompt,
  ReadResourceRequestSchema,
  Resource,
  ResourceTemplate,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ACCESS_DENIED } from '../domain/errors';
import type { Kernel } from '../kernel';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { Caller } from '../domain/caller';
import { qualifiedToolName } from '../lifecycle/serverManager';
import { NameTable, type NamedItem, type NameStyle, type NameWarning } from './names';
import { servesSeveral } from './toolListing';
import { onTheWire, WireError } from './wireErrors';

/** MCP: a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export interface GatewayPrompt extends NamedItem {
  prompt: Prompt;
}

/** The session as the catalog sees it. */
export interface CatalogSession {
  readonly server: Server;
  readonly identity: Caller;
  /** The style of names its client is given (names.ts). */
  readonly nameStyle: NameStyle;
  remember(kind: 'resources' | 'prompts', signature: string): void;
}

/** What the catalog needs of the gateway. */
export interface CatalogHost {
  kernel: Kernel;
  /** Resolves when the servers have first started: lists wait for it. */
  ready: Promise<void>;
  prompts(): NameTable<GatewayPrompt>;
  catalogSignature(session: CatalogSession, kind: 'resources' | 'prompts'): string;
  subscribe(session: CatalogSession, server: SupervisedServer, uri: string): Promise<void>;
  unsubscribe(session: CatalogSession, uri: string): Promise<void>;
}

/** Connected servers the client may use (MGP §5: its access to the server as a whole). */
export function reachableServers(kernel: Kernel, caller: Caller): SupervisedServer[] {
  return kernel.manager
    .list()
    .filter(
      (server) =>
        server.state === 'connected' &&
        kernel.access.query(caller.agentId, server.id).permission === 'allow',
    );
}

export function gatewayPrompts(
  kernel: Kernel,
  warn?: NameWarning<GatewayPrompt>,
): NameTable<GatewayPrompt> {
  return new NameTable(
    kernel.manager
      .list()
      .filter((server) => server.state === 'connected')
      .flatMap((server) =>
        server.prompts.map((prompt) => ({
          serverId: server.id,
          name: prompt.name,
          kernelName: qualifiedToolName(server.config, prompt.name),
          prompt,
        })),
      ),
    { qualify: servesSeveral(kernel), warn },
  );
}

export function listResources(kernel: Kernel, caller: Caller): Resource[] {
  return reachableServers(kernel, caller).flatMap((server) => server.resources);
}

export function listTemplates(kernel: Kernel, caller: Caller): ResourceTemplate[] {
  return reachableServers(kernel, caller).flatMap((server) => server.resourceTemplates);
}

export function listPrompts(host: CatalogHost, caller: Caller, style: NameStyle): Prompt[] {
  const reachable = new Set(reachableServers(host.kernel, caller).map((server) => server.id));
  return host
    .prompts()
    .entries(style)
    .filter(({ item }) => reachable.has(item.serverId))
    .map(({ item, name }) => ({ ...item.prompt, name }));
}

function matches(template: string, uri: string): boolean {
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    return false;
  }
}

/** The server a URI belongs to: the one that lists it, else one whose template matches it. */
export function ownerOf(kernel: Kernel, caller: Caller, uri: string): SupervisedServer {
  const servers = reachableServers(kernel, caller);
  const owner =
    servers.find((server) => server.resources.some((r) => r.uri === uri)) ??
    servers.find((server) => server.resourceTemplates.some((t) => matches(t.uriTemplate, uri))) ??
    // A server may serve URIs it does not list: when one server offers resources at all, it is that one.
    singleResourceServer(servers);
  if (!owner) throw new WireError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  return owner;
}

function singleResourceServer(servers: SupervisedServer[]): SupervisedServer | undefined {
  const offering = servers.filter(
    (server) => server.liveConnection?.client.getServerCapabilities()?.resources,
  );
  return offering.length === 1 ? offering[0] : undefined;
}

function checkAccess(kernel: Kernel, caller: Caller, serverId: string): void {
  if (kernel.access.query(caller.agentId, serverId).permission !== 'allow')
    throw new WireError(ACCESS_DENIED, `${caller.agentId} has no access to ${serverId}`, {
      _mgp: { category: 'security', retryable: false },
    });
}

function audited(
  kernel: Kernel,
  caller: Caller,
  what: { event: string; serverId: string; details: Record<string, unknown> },
  result: string,
): Promise<void> {
  return kernel.options.audit.record({
    event_type: what.event,
    actor: { type: 'agent', id: caller.agentId },
    target: { server_id: what.serverId },
    result,
    details: what.details,
  });
}

/** Runs a read or a prompt in the client's name: access checked first, the outcome audited. */
async function governed<T>(
  kernel: Kernel,
  caller: Caller,
  what: { event: string; serverId: string; details: Record<string, unknown> },
  work: () => Promise<T>,
): Promise<T> {
  checkAccess(kernel, caller, what.serverId);
  try {
    const result = await work();
    await audited(kernel, caller, what, 'SUCCESS');
    return result;
  } catch (error) {
    await audited(kernel, caller, what, 'FAILURE');
    throw error;
  }
}

async function complete(
  host: CatalogHost,
  caller: Caller,
  params: CompleteRequest['params'],
): Promise<CompleteResult> {
  const servers = reachableServers(host.kernel, caller);
  const { ref } = params;
  let owner: SupervisedServer | undefined;
  let forwarded = ref;
  if (ref.type === 'ref/prompt') {
    const prompt = host.prompts().resolve(ref.name);
    owner = servers.find((server) => server.id === prompt?.serverId);
    if (prompt) forwarded = { ...ref, name: prompt.name };
  } else {
    owner = servers.find(
      (server) =>
        server.resourceTemplates.some((t) => t.uriTemplate === ref.uri) ||
        server.resources.some((r) => r.uri === ref.uri),
    );
  }
  const connection = owner?.liveConnection;
  if (!connection) return { completion: { values: [], hasMore: false } };
  return { completion: await connection.complete({ ...params, ref: forwarded }) };
}

export function registerCatalog(session: CatalogSession, host: CatalogHost): void {
  const { kernel } = host;
  const server = session.server;
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    await host.ready;
    session.remember('resources', host.catalogSignature(session, 'resources'));
    return { resources: listResources(kernel, session.identity) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    await host.ready;
    return { resourceTemplates: listTemplates(kernel, session.identity) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    onTheWire(async () => {
      await host.ready;
      const { uri } = request.params;
      const owner = ownerOf(kernel, session.identity, uri);
      return governed(
        kernel,
        session.identity,
        { event: 'dev.mgp-kernel.resource_read', serverId: owner.id, details: { uri } },
        () => owner.session().readResource(uri),
      );
    }),
  );
  server.setRequestHandler(SubscribeRequestSchema, (request) =>
    onTheWire(async () => {
      await host.ready;
      const owner = ownerOf(kernel, session.identity, request.params.uri);
      await host.subscribe(session, owner, request.params.uri);
      return {};
    }),
  );
  server.setRequestHandler(UnsubscribeRequestSchema, (request) =>
    onTheWire(async () => {
      await host.unsubscribe(session, request.params.uri);
      return {};
    }),
  );
  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    await host.ready;
    session.remember('prompts', host.catalogSignature(session, 'prompts'));
    return { prompts: listPrompts(host, session.identity, session.nameStyle) };
  });
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    onTheWire(async () => {
      await host.ready;
      const prompt = host.prompts().resolve(request.params.name);
      if (!prompt)
        throw new WireError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
      return governed(
        kernel,
        session.identity,
        {
          event: 'dev.mgp-kernel.prompt_get',
          serverId: prompt.serverId,
          details: { prompt: prompt.name },
        },
        () =>
          kernel.manager
            .get(prompt.serverId)
            .session()
            .getPrompt(prompt.name, request.params.arguments ?? {}),
      );
    }),
  );
  server.setRequestHandler(CompleteRequestSchema, (request) =>
    onTheWire(async () => {
      await host.ready;
      return complete(host, session.identity, request.params);
    }),
  );
}
