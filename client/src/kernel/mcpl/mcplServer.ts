/** One server that speaks MCPL, as the host and its parts (hooks, elevation, tool calls) see it. */
import type { ServerMcpl } from './capabilities';
import type { FeatureSetTable } from './featureSets';

export interface McplServer {
  id: string;
  mcpl: ServerMcpl;
  table: FeatureSetTable;
  /** The last featureSets/update sent, to send again only on a change. */
  sent?: string;
}
