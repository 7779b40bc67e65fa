/**
 * MGP §19.4 retention policies, applied to whole files (never to records inside a file, which would
 * break the chain): the oldest files go first, the file being written is never deleted, and what is
 * deleted is always a run of the oldest files, so the retained log stays one unbroken chain.
 */
export type RetentionPolicy =
  | { policy: 'keep_all' }
  /** Delete a file once its newest record is older than `days`. */
  | { policy: 'time_based'; days: number }
  /** Delete the oldest files while all files together are larger than `maxBytes`. */
  | { policy: 'size_based'; maxBytes: number };

export const KEEP_ALL: RetentionPolicy = { policy: 'keep_all' };

export interface SegmentFacts {
  bytes: number;
  /** Timestamp (ms) of the file's newest record; undefined when it cannot be read (the file is kept). */
  newest?: number;
}

const DAY_MS = 86_400_000;

/** How many of the oldest files to delete. `segments` is oldest first; the last one is being written. */
export function filesToPrune(
  segments: readonly SegmentFacts[],
  policy: RetentionPolicy,
  now: number,
): number {
  const closed = segments.length - 1;
  if (closed <= 0) return 0;
  switch (policy.policy) {
    case 'keep_all':
      return 0;
    case 'time_based': {
      const cutoff = now - policy.days * DAY_MS;
      let count = 0;
      while (
        count < closed &&
        segments[count].newest !== undefined &&
        (segments[count].newest as number) < cutoff
      )
        count++;
      return count;
    }
    case 'size_based': {
      let total = segments.reduce((sum, s) => sum + s.bytes, 0);
      let count = 0;
      while (count < closed && total > policy.maxBytes) total -= segments[count++].bytes;
      return count;
    }
  }
}

/** Why `policy` is not a retention policy, or undefined. */
export function retentionProblem(policy: RetentionPolicy): string | undefined {
  if (policy.policy === 'time_based' && !(policy.days > 0))
    return 'time_based retention needs days > 0';
  if (policy.policy === 'size_based' && !(policy.maxBytes > 0))
    return 'size_based retention needs maxBytes > 0';
  if (!['keep_all', 'time_based', 'size_based'].includes(policy.policy))
    return `unknown retention policy ${JSON.stringify(policy.policy)}`;
  return undefined;
}
