/**
 * The discovery kernel tools as a model or a `tools/list` sees them (MGP §16.5–§16.7): names,
 * descriptions and the spec's input schemas.
 */
import type { JsonSchemaObject, ServerTool } from './types';

const RISK = { type: 'string', enum: ['safe', 'moderate', 'dangerous'] };

/** Input schemas of `mgp.tools.discover`, `mgp.tools.request`, `mgp.tools.session` and `mgp.tools.session.evict`. */
export const KERNEL_DISCOVERY_TOOL_SCHEMAS: Readonly<Record<string, JsonSchemaObject>> =
  Object.freeze({
    'mgp.tools.discover': {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Natural language description of needed capability' },
        strategy: { type: 'string', enum: ['keyword', 'semantic', 'category'], default: 'keyword' },
        max_results: { type: 'number', default: 5 },
        filter: {
          type: 'object',
          properties: {
            categories: { type: 'array', items: { type: 'string' } },
            risk_level_max: RISK,
            status: { type: 'string', enum: ['connected', 'all'] },
          },
        },
      },
      required: ['query'],
    },
    'mgp.tools.request': {
      type: 'object',
      properties: {
        reason: { type: 'string', enum: ['capability_gap', 'performance', 'preference'] },
        context: { type: 'string', description: 'Why the tool is needed' },
        requirements: {
          type: 'object',
          properties: {
            capabilities: { type: 'array', items: { type: 'string' } },
            input_types: { type: 'array', items: { type: 'string' } },
            output_types: { type: 'array', items: { type: 'string' } },
            preferred_risk_level: RISK,
          },
        },
        task_trace_id: { type: 'string', description: 'Trace ID for audit' },
      },
      required: ['reason', 'context', 'requirements'],
    },
    'mgp.tools.session': { type: 'object', properties: {} },
    'mgp.tools.session.evict': {
      type: 'object',
      properties: {
        tools: { type: 'array', items: { type: 'string' }, description: 'Tool names to evict' },
        reason: { type: 'string' },
      },
      required: ['tools'],
    },
  });

const DESCRIPTIONS: Record<string, string> = {
  'mgp.tools.discover':
    'Search for tools based on a natural language description of a needed capability. Returns the best matching tools with their full input schemas, ready to call.',
  'mgp.tools.request':
    'Request tools to fill a capability gap during a task. Matching tools are loaded into the session with their full schemas.',
  'mgp.tools.session':
    "Query the current session's loaded tools: pinned, cached, and the tokens they take.",
  'mgp.tools.session.evict': 'Remove tools from the session cache to free context space.',
};

/** The four discovery kernel tools as index entries take them (server `mgp`). */
export function discoveryKernelTools(): ServerTool[] {
  return Object.entries(KERNEL_DISCOVERY_TOOL_SCHEMAS).map(([name, inputSchema]) => ({
    name,
    description: DESCRIPTIONS[name],
    inputSchema: inputSchema as JsonSchemaObject,
    security: { risk_level: 'safe', permissions_required: [], side_effects: [] },
  }));
}
