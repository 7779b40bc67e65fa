/**
 * Names a model can call. Model APIs accept tool names of letters, digits, `_` and `-`, at most 64
 * characters (OpenAI's functions, VS Code's language-model tools); the kernel names tools
 * `server.tool` with any characters the server chose. Each session gives every tool it offers one
 * such name, stable for the session and never shared: `example.delete_notes` → `example_delete_notes`,
 * `mgp.tools.discover` → `mgp_tools_discover`.
 */
import { createHash } from 'node:crypto';
import { KERNEL_SERVER_ID } from '../domain/kernelTool';

export interface ToolRef {
  serverId: string;
  toolName: string;
}

const MAX_NAME = 64;

function sanitized(ref: ToolRef): string {
  const full = ref.serverId === KERNEL_SERVER_ID ? ref.toolName : `${ref.serverId}.${ref.toolName}`;
  const plain = full.replace(/[^A-Za-z0-9_-]/g, '_');
  if (plain.length <= MAX_NAME) return plain;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${plain.slice(0, MAX_NAME - 9)}_${hash}`;
}

export class ModelToolNames {
  private readonly refs = new Map<string, ToolRef>();
  private readonly names = new Map<string, string>();

  /** The model's name for a tool: the same every time it is asked. */
  nameOf(ref: ToolRef): string {
    const key = `${ref.serverId}\u0000${ref.toolName}`;
    const known = this.names.get(key);
    if (known) return known;
    const base = sanitized(ref);
    let name = base;
    for (let n = 2; this.refs.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    this.refs.set(name, { serverId: ref.serverId, toolName: ref.toolName });
    this.names.set(key, name);
    return name;
  }

  /** The tool a model's name stands for, if this session ever named it. */
  resolve(name: string): ToolRef | undefined {
    return this.refs.get(name);
  }
}
