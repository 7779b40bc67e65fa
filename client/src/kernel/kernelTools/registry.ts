/** The registry of the kernel's own tools (their shape is domain/kernelTool.ts). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { KernelTool } from '../domain/kernelTool';

/** A kernel tool's answer as a tools/call result: JSON text plus structuredContent. */
export function toolResult(value: unknown): CallToolResult {
  const structured =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: structured,
  };
}

export class KernelToolRegistry {
  private readonly tools = new Map<string, KernelTool>();

  register(...tools: KernelTool[]): void {
    for (const tool of tools) this.tools.set(tool.name, tool);
  }

  get(name: string): KernelTool | undefined {
    return this.tools.get(name);
  }

  list(): KernelTool[] {
    return [...this.tools.values()];
  }
}
