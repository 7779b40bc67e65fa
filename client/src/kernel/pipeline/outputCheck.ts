/**
 * A tool that declares an outputSchema MUST answer `structuredContent` that conforms to it, and
 * clients SHOULD validate it (MCP 2025-11-25, Tools: output schema). The kernel checks it with the
 * same checker as the arguments and, when it does not fit, hands the result on marked, never silently:
 * `outputSchemaMismatch` for programs, and a text line every reader sees (the Run Tool panel, the
 * CLI, an agent's model). A tool error (`isError`) is not checked: it answers no output.
 */
import type { CappedResult, ListedTool } from '../connection/serverConnection';
import type { ArgumentChecker } from './argumentChecker';

/** The result as it came, or a marked copy when its structured content breaks the tool's promise. */
export function checkOutput(
  checker: ArgumentChecker,
  tool: ListedTool,
  result: CappedResult,
): CappedResult {
  const schema = tool.outputSchema as Record<string, unknown> | undefined;
  if (!schema || result.isError) return result;
  const problem =
    result.structuredContent === undefined
      ? 'no structuredContent, though the tool declares an outputSchema'
      : checker.problem(schema, result.structuredContent, '(structuredContent)');
  if (!problem) return result;
  return {
    ...result,
    content: [
      ...(result.content ?? []),
      {
        type: 'text',
        text: `[the result does not match ${tool.name}'s output schema: ${problem}]`,
      },
    ],
    outputSchemaMismatch: { problem },
  };
}
