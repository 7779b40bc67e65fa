/**
 * Reading an agent's card (OpenFang, Agent Card; A2A 1.0 and 0.3: `/.well-known/agent-card.json`;
 * OpenFang: `/.well-known/agent.json`) and telling from it which dialect the agent speaks: a card
 * with `supportedInterfaces` is A2A 1.0 (or 0.3, by each interface's `protocolVersion`), one with a
 * `protocolVersion` is A2A 0.3, one with neither is OpenFang's. The card is untrusted: it is bounded
 * in size, its text is cut to bounded lengths here and escaped wherever it is shown.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { KernelError } from '../domain/errors';
import type { A2aDialect, A2aSkill, AgentCardSummary } from './types';

export const CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];
/** How long reading a card may take (OpenFang, A2A Security: External Agent Discovery). */
export const CARD_TIMEOUT_MS = 30_000;

const LIMITS = {
  name: 100,
  description: 1000,
  skills: 50,
  skillName: 100,
  skillDescription: 500,
  tags: 10,
  tag: 40,
  examples: 5,
  example: 200,
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string from the card, cut to `max` characters (with an ellipsis when cut). */
export function bounded(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function strings(value: unknown, count: number, max: number): string[] {
  return Array.isArray(value) ? value.slice(0, count).map((item) => bounded(item, max)) : [];
}

/** The URLs a card is looked for at, in order: the URL itself when it names a `.json` file. */
export function cardUrls(base: string): string[] {
  const url = new URL(base);
  if (url.pathname.endsWith('.json')) return [url.href];
  const root = url.href.replace(/\/+$/, '');
  return CARD_PATHS.map((path) => `${root}${path}`);
}

const BINDINGS = new Set(['JSONRPC', 'HTTP+JSON']);

interface Interface {
  url: string;
  protocolBinding: string;
  protocolVersion: string;
}

function interfacesOf(card: Json): Interface[] {
  const list = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  return list.filter(isObject).map((item) => ({
    url: typeof item.url === 'string' ? item.url : '',
    protocolBinding: typeof item.protocolBinding === 'string' ? item.protocolBinding : '',
    protocolVersion: typeof item.protocolVersion === 'string' ? item.protocolVersion : '',
  }));
}

/** The dialect, protocol version and endpoint a card declares. */
export function dialectOf(
  card: Json,
  cardUrl: string,
): { dialect: A2aDialect; protocolVersion?: string; endpoint: string } {
  if (Array.isArray(card.supportedInterfaces)) {
    const usable = interfacesOf(card).filter((i) => BINDINGS.has(i.protocolBinding) && i.url);
    const v1 = usable.find((i) => i.protocolVersion.startsWith('1.'));
    const v03 = usable.find((i) => i.protocolVersion.startsWith('0.'));
    const chosen = v1 ?? v03;
    if (!chosen)
      throw new KernelError(
        'A2a',
        'the agent offers no JSON-RPC or HTTP+JSON interface of A2A 1.0 or 0.3',
      );
    return {
      dialect: v1 ? 'a2a-1.0' : 'a2a-0.3',
      protocolVersion: chosen.protocolVersion,
      endpoint: new URL(chosen.url, cardUrl).href,
    };
  }
  const url = typeof card.url === 'string' ? card.url : '';
  if (!url) throw new KernelError('A2a', 'the card names no endpoint (`url`)');
  const endpoint = new URL(url, cardUrl).href;
  if (typeof card.protocolVersion === 'string')
    return { dialect: 'a2a-0.3', protocolVersion: card.protocolVersion, endpoint };
  return { dialect: 'openfang', endpoint };
}

function skillsOf(card: Json): A2aSkill[] {
  const list = Array.isArray(card.skills) ? card.skills.filter(isObject) : [];
  return list.slice(0, LIMITS.skills).map((skill) => ({
    id: bounded(skill.id, LIMITS.skillName),
    name: bounded(skill.name ?? skill.id, LIMITS.skillName),
    description: bounded(skill.description, LIMITS.skillDescription),
    tags: strings(skill.tags, LIMITS.tags, LIMITS.tag),
    examples: strings(skill.examples, LIMITS.examples, LIMITS.example),
  }));
}

/** The card as the kernel keeps it: bounded text, the dialect decided. */
export function summarizeCard(card: Json, cardUrl: string): AgentCardSummary {
  const { dialect, protocolVersion, endpoint } = dialectOf(card, cardUrl);
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  return {
    name: bounded(card.name, LIMITS.name),
    description: bounded(card.description, LIMITS.description),
    version: typeof card.version === 'string' ? bounded(card.version, 40) : undefined,
    dialect,
    protocolVersion,
    endpoint,
    cardUrl,
    streaming: capabilities.streaming === true,
    skills: skillsOf(card),
  };
}

export interface FetchedCard {
  summary: AgentCardSummary;
  /** The card as sent, parsed: the SDK's client is built from it. */
  raw: Json;
}

/**
 * Reads the agent's card: the A2A path, then OpenFang's, within CARD_TIMEOUT_MS. A 404 moves on to
 * the next path; anything else that is not a JSON object is an error that says what came back.
 */
export async function fetchAgentCard(
  base: string,
  fetch: FetchLike,
  signal?: AbortSignal,
): Promise<FetchedCard> {
  const timeout = AbortSignal.timeout(CARD_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const urls = cardUrls(base);
  for (const [index, url] of urls.entries()) {
    let response: Response;
    let body: string;
    try {
      response = await fetch(url, {
        headers: { Accept: 'application/json', 'A2A-Version': '1.0' },
        signal: both,
      });
      body = response.status === 404 ? '' : await response.text();
      if (response.status === 404) await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      if (timeout.aborted && !signal?.aborted)
        throw new KernelError('Timeout', `no card from ${url} within ${CARD_TIMEOUT_MS / 1000} s`);
      throw new KernelError(
        'A2a',
        `cannot read the card at ${url}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (response.status === 404 && index < urls.length - 1) continue;
    if (!response.ok)
      throw new KernelError('A2a', `the card at ${url} answered HTTP ${response.status}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new KernelError('A2a', `the card at ${url} is not valid JSON`);
    }
    if (!isObject(parsed)) throw new KernelError('A2a', `the card at ${url} is not a JSON object`);
    return { summary: summarizeCard(parsed, url), raw: parsed };
  }
  throw new KernelError('A2a', `no card at ${urls.join(' or ')}`);
}
