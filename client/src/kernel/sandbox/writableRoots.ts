/**
 * The folders a sandboxed server may write: the roots the kernel offers servers (MCP roots: the
 * workspace's folders), or the working folder when it offers none.
 */
import { fileURLToPath } from 'node:url';

export interface RootsSource {
  roots?: () => { uri: string }[];
  workingFolder?: string;
}

export function writableRoots(source: RootsSource): string[] {
  const folders = (source.roots?.() ?? []).flatMap((root) => {
    try {
      return root.uri.startsWith('file:') ? [fileURLToPath(root.uri)] : [];
    } catch {
      return [];
    }
  });
  if (folders.length) return folders;
  return source.workingFolder ? [source.workingFolder] : [];
}
