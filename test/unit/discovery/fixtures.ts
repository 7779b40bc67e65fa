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
  /** `dev` or `test` in queries.json; a held-out file's name (`holdout`, `holdout2`, …) in those. */
  split: string;
  query: string;
  expected: string[];
}

const dir = join(repoRoot(), 'test/fixtures/discovery');

export function corpus(): CorpusServer[] {
  return JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')).servers;
}

export function queries(): Query[] {
  return JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8')).queries;
}

/**
 * The held-out sets of intents by name (`holdout`, `holdout2`, …), in the order they were written
 * (queries-holdout*.json). Each was written before the ranking changes that followed it, measured once,
 * and only then studied; the newest has never been studied. From the fourth on, every query shares
 * under half its words with any earlier query.
 */
export function heldOutSets(): Map<string, Query[]> {
  return new Map([...heldOutFiles()].map(([name, file]) => [name, file.queries]));
}

/** Whether each held-out set's misses have been studied (its `studied` field). */
export function heldOutStudied(): Map<string, unknown> {
  return new Map([...heldOutFiles()].map(([name, file]) => [name, file.studied]));
}

function heldOutFiles(): Map<string, { studied?: unknown; queries: Query[] }> {
  const files = readdirSync(dir)
    .map((file) => /^queries-(holdout(\d*))\.json$/.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .sort((a, b) => Number(a[2] || 1) - Number(b[2] || 1));
  return new Map(
    files.map((match) => [match[1], JSON.parse(readFileSync(join(dir, match[0]), 'utf8'))]),
  );
}

/** An index over the whole corpus (plus the discovery kernel tools). */
export function corpusIndex(options: ToolIndexOptions = {}): ToolIndex {
  const index = createToolIndex(options);
  for (const server of corpus()) index.upsertServer(server.id, server.tools);
  return index;
}

export function tool(
  name: string,
  description: string,
  extra: Partial<ServerTool> = {},
): ServerTool {
  return { name, description, inputSchema: { type: 'object', properties: {} }, ...extra };
}
