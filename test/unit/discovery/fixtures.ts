import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createToolIndex,
  type ServerTool,
  type ToolIndex,
  type ToolIndexOptions,
} from '../../../client/src/kernel/discovery';
import { repoRoot } from '../../repoRoot';

export interface CorpusServer {
  id: string;
  package: string;
  version: string;
  tools: ServerTool[];
}

export interface Query {
  id: string;
  /** `train` or `dev` (studied sets), `test` (never studied, seen servers), `unseen` (servers never seen). */
  split: string;
  query: string;
  expected: string[];
}

const dir = join(repoRoot(), 'test/fixtures/discovery');
const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const filesOf = (prefix: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort();

export function corpus(): CorpusServer[] {
  return read('corpus.json').servers;
}

/** The servers the ranker has never seen (unseen-corpus.json). */
export function unseenCorpus(): CorpusServer[] {
  return read('unseen-corpus.json').servers;
}

/** The studied sets' requests, each in its frozen split (`train` or `dev`). */
export function studiedQueries(): Query[] {
  return filesOf('queries-studied-').flatMap((f) => read(f).queries);
}

/** The seen servers' test split: requests never studied (queries-test-NN.json). */
export function seenTestQueries(): Query[] {
  return filesOf('queries-test-').flatMap((f) => read(f).queries);
}

/** Requests to the servers never seen, written before any ranking ran on them. */
export function unseenQueries(): Query[] {
  return read('queries-unseen.json').queries;
}

/** Whether each query file says its requests were studied. */
export function studiedFlags(): Map<string, unknown> {
  return new Map(filesOf('queries-').map((f) => [f, read(f).studied]));
}

/** An index over the whole corpus, or another set of servers (plus the discovery kernel tools). */
export function corpusIndex(
  options: ToolIndexOptions = {},
  servers: CorpusServer[] = corpus(),
): ToolIndex {
  const index = createToolIndex(options);
  for (const server of servers) index.upsertServer(server.id, server.tools);
  return index;
}

export function tool(
  name: string,
  description: string,
  extra: Partial<ServerTool> = {},
): ServerTool {
  return { name, description, inputSchema: { type: 'object', properties: {} }, ...extra };
}
