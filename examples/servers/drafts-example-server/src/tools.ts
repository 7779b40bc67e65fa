/** The tools' listings: JSON Schemas written out, so that what a tool declares is exactly what it says. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const seed = {
  type: 'integer',
  description: 'MCP draft §2: the seed to use; one is chosen (and said) when left out',
};
const prng = {
  type: 'string',
  enum: ['lcg', 'xoroshiro'],
  description: 'MCP draft §2: the PRNG (advisory); xoroshiro when left out',
};

export const TOOLS: Tool[] = [
  {
    name: 'roll_dice',
    title: 'Roll dice',
    description:
      'Rolls dice with a seeded PRNG. The same seed and PRNG give the same rolls (determinism: strict); the result says the seed it used.',
    inputSchema: {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1, maximum: 100, default: 5, description: 'Dice' },
        sides: { type: 'integer', minimum: 2, maximum: 1000, default: 6, description: 'Sides' },
        seed,
        prng,
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'research',
    title: 'Research (a phased job)',
    description:
      'A job in the five phases of the MCP draft (observe, abstract, decide, act, verify): it sends its events as it goes, each with an id, and answers with what it concluded. Its arguments are those of the draft’s wire example.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to research' },
        agent_mode: {
          type: 'string',
          enum: ['implicit', 'explicit'],
          default: 'implicit',
          description: 'MCP draft §1',
        },
        algebra: { type: 'string', description: 'MCP draft §1: a tag algebra, e.g. I(A(R(O(K))))' },
        resource_hints: {
          type: 'object',
          description: 'MCP draft §1',
          properties: {
            max_context: { type: 'number' },
            rope_scale: { type: 'number' },
            device: { type: 'string', enum: ['webgpu', 'cpu'] },
          },
          additionalProperties: false,
        },
        seed,
        steps: {
          type: 'integer',
          minimum: 1,
          maximum: 20,
          default: 2,
          description: 'Events per phase',
        },
        step_ms: {
          type: 'integer',
          minimum: 0,
          maximum: 5000,
          default: 150,
          description: 'Milliseconds between events',
        },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'echo_arguments',
    title: 'Echo the arguments',
    description:
      'Answers with the arguments exactly as they arrived. Its schema declares no draft field.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'client_hints',
    title: 'Client resource hints',
    description:
      'Answers with the resource hints (MCP draft §5) the client sent at initialize, or null when it sent none.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
];
