/**
 * A checkpoint tree (MCPL §8.2) cut into lines of history for a tree view: the first line runs from
 * a root through the current checkpoint to the newest checkpoint after it (what a roll forward can
 * reach); every other child of a checkpoint starts a line of its own (a branch made after a
 * rollback), and so does every other root. Each line is oldest first.
 */
import type { CheckpointNode } from '../../kernel';

export function historyLines(
  checkpoints: readonly CheckpointNode[],
  current: string | undefined,
): CheckpointNode[][] {
  const known = new Set(checkpoints.map((c) => c.id));
  const children = new Map<string | null, CheckpointNode[]>();
  for (const checkpoint of checkpoints) {
    const parent =
      checkpoint.parent !== null && known.has(checkpoint.parent) ? checkpoint.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), checkpoint]);
  }
  // The checkpoints on the way to the current one: the line through them comes first.
  const towardCurrent = new Set<string>();
  const byId = new Map(checkpoints.map((c) => [c.id, c]));
  for (let id = current; id !== undefined && byId.has(id) && !towardCurrent.has(id);) {
    towardCurrent.add(id);
    const parent = byId.get(id)!.parent;
    id = parent === null ? undefined : parent;
  }
  // The child a line goes on with: toward the current checkpoint, else the newest.
  const primary = (list: CheckpointNode[]) =>
    list.find((c) => towardCurrent.has(c.id)) ?? list[list.length - 1];

  const lines: CheckpointNode[][] = [];
  const seen = new Set<string>();
  const follow = (start: CheckpointNode) => {
    const line: CheckpointNode[] = [];
    const starts: CheckpointNode[] = [];
    for (let node: CheckpointNode | undefined = start; node && !seen.has(node.id);) {
      seen.add(node.id);
      line.push(node);
      const next: CheckpointNode[] = children.get(node.id) ?? [];
      const chosen = next.length ? primary(next) : undefined;
      starts.push(...next.filter((c) => c !== chosen));
      node = chosen;
    }
    if (line.length) lines.push(line);
    for (const branch of starts) follow(branch);
  };
  const roots = children.get(null) ?? [];
  const first = roots.length ? primary(roots) : undefined;
  if (first) follow(first);
  for (const root of roots) if (root !== first) follow(root);
  // Checkpoints in a parent loop (a server's mistake) have no root: shown once each all the same.
  for (const checkpoint of checkpoints) if (!seen.has(checkpoint.id)) follow(checkpoint);
  return lines;
}
