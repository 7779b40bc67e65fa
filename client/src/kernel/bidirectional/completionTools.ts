/**
 * The `tools` of an `llm_completion` callback (MGP §13.4) as the kernel's chat model takes them, and
 * the model's tool calls as the callback's `tool_calls` answer. A tool is `{ name, description,
 * input_schema }` (MCP's `inputSchema` and OpenAI's `{ type: 'function', function: { parameters } }`
 * are read too); one without a usable name is a clear error, not silently dropped.
 */
import type { ModelTool, ModelToolCall } from '../llm/chatModel';

const MODEL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function completionTools(value: unknown): ModelTool[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error('llm_completion tools must be an array (MGP §13.4)');
  return value.map((entry, index) => {
    const tool = isObject(entry) && isObject(entry.function) ? entry.function : entry;
    if (!isObject(tool) || typeof tool.name !== 'string' || !MODEL_NAME.test(tool.name))
      throw new Error(
        `llm_completion tools[${index}] needs a name of letters, digits, _ or - (at most 64)`,
      );
    const schema = tool.input_schema ?? tool.inputSchema ?? tool.parameters;
    return {
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : '',
      inputSchema: isObject(schema) ? schema : { type: 'object' },
    };
  });
}

/** A model's tool call as the callback answers it: the arguments parsed when they are JSON. */
export function completionToolCall(call: ModelToolCall): Record<string, unknown> {
  let args: unknown = call.arguments;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    // arguments that do not parse go back as the model wrote them
  }
  return { id: call.id, name: call.name, arguments: args };
}
