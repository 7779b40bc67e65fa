/**
 * Command-line flags. Unknown arguments are ignored, so a host may pass its own markers.
 *
 *   --mgp-unasked        answer with `capabilities.mgp` even when the client did not ask: a deliberate
 *                        breach of MGP §2.4 rule 3, for clients that test how they handle it
 *   --mgp-version X.Y.Z  answer with this MGP version instead of 0.5.2 (semver tests, MGP §2.4 rule 4)
 *   --heartbeat-ms N     emit `system.heartbeat` events every N ms (needs `bidirectional`)
 *   --mcp-all-tools      list every tool, with its `security` metadata, to plain MCP clients too
 */
import { MGP_VERSION } from './wire';

export interface ServerOptions {
  mgpUnasked: boolean;
  mgpVersion: string;
  heartbeatMs?: number;
  mcpAllTools: boolean;
}

function valueAfter(argv: string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
}

export function parseOptions(argv: string[]): ServerOptions {
  const heartbeat = Number(valueAfter(argv, '--heartbeat-ms'));
  return {
    mgpUnasked: argv.includes('--mgp-unasked'),
    mgpVersion: valueAfter(argv, '--mgp-version') ?? MGP_VERSION,
    heartbeatMs: Number.isFinite(heartbeat) && heartbeat > 0 ? heartbeat : undefined,
    mcpAllTools: argv.includes('--mcp-all-tools'),
  };
}
