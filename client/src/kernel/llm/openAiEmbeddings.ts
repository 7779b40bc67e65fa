/**
 * Sentence embeddings from an OpenAI-compatible endpoint (`POST {base}/embeddings`): OpenAI itself,
 * Ollama, LM Studio, vLLM, llama.cpp's server… The same base URL and key as the chat model; the key
 * is sent only as the Authorization header.
 */
import { apiKeyFor, type ApiKey } from './endpointKey';

export interface EmbeddingEndpointOptions {
  baseUrl: string;
  /** The embedding model (`text-embedding-3-small`, `nomic-embed-text`…). */
  model: string;
  /** Asked for at each request, for the URL it goes to (endpointKey.ts). */
  apiKey?: ApiKey;
  /** For tests and proxies. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Vectors for texts, in their order. */
export type Embed = (texts: readonly string[], signal?: AbortSignal) => Promise<number[][]>;

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[];
  error?: { message?: string };
}

/** An `Embed` calling the endpoint; it fails with a message that says what the endpoint did wrong. */
export function openAiEmbeddings(options: EmbeddingEndpointOptions): Embed {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  return async (texts, signal) => {
    if (!texts.length) return [];
    const apiKey = await apiKeyFor(options.apiKey, url);
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    const response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: {
        'content-type': 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ model: options.model, input: texts }),
    });
    const body = (await response.json().catch(() => ({}))) as EmbeddingsResponse;
    if (!response.ok)
      throw new Error(
        `the embeddings endpoint answered ${response.status}${body.error?.message ? `: ${body.error.message}` : ''}`,
      );
    return vectorsOf(body, texts.length);
  };
}

/** The response's vectors by their `index`, checked: one per text, all numeric, all of one length. */
function vectorsOf(body: EmbeddingsResponse, count: number): number[][] {
  const data = body.data;
  if (!Array.isArray(data) || data.length !== count)
    throw new Error(
      `the embeddings endpoint answered ${Array.isArray(data) ? data.length : 'no'} vectors for ${count} texts`,
    );
  const vectors: number[][] = new Array(count);
  data.forEach((item, position) => {
    const at = typeof item.index === 'number' ? item.index : position;
    const embedding = item.embedding;
    if (
      !Array.isArray(embedding) ||
      !embedding.length ||
      embedding.some((x) => typeof x !== 'number' || !Number.isFinite(x))
    )
      throw new Error('the embeddings endpoint answered a vector that is not a list of numbers');
    if (at < 0 || at >= count || vectors[at])
      throw new Error('the embeddings endpoint answered vectors with wrong indexes');
    vectors[at] = embedding as number[];
  });
  if (vectors.some((v) => v.length !== vectors[0].length))
    throw new Error('the embeddings endpoint answered vectors of different lengths');
  return vectors;
}
