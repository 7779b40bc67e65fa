import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createToolIndex, type ServerTool, type ToolIndex, type ToolIndexOptions } from '../../../client/src/kernel/discovery';
import { repoRoot } from '../../repoRoot';

export interface CorpusServer {
  id: string;
  package: string;
  version: string;
  tools: ServerTool[];
}

export interface Query {
  id: string;
  split: 'dev' | 'test' | 'holdout' | 'holdout2' | 'holdout3' | 'holdout4' | 'holdout5' | 'holdout6' | 'holdout7' | 'holdout8' | 'holdout9' | 'holdout10' | 'holdout11';
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

export type HoldoutNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11;

/**
 * A held-out set of intents, each written before the ranking changes that followed it. Sets 1 to 10 were
 * evaluated, then their misses studied; set 11 only evaluated. From set 4 on, every query shares under
 * half its words with any earlier query.
 */
export function holdoutQueries(which: HoldoutNumber = 1): Query[] {
  const file = which === 1 ? 'queries-holdout.json' : `queries-holdout${which}.json`;
  return JSON.parse(readFileSync(join(dir, file), 'utf8')).queries;
}

/** An index over the whole corpus (plus the discovery kernel tools). */
export function corpusIndex(options: ToolIndexOptions = {}): ToolIndex {
  const index = createToolIndex(options);
  for (const server of corpus()) index.upsertServer(server.id, server.tools);
  return index;
}

export function tool(name: string, description: string, extra: Partial<ServerTool> = {}): ServerTool {
  return { name, description, inputSchema: { type: 'object', properties: {} }, ...extra };
}
