/**
 * The loop guard (OpenFang's kernel protection: "blocks repetitive tool call patterns"): the same
 * tool called with the same arguments `limit` times in a row stops the agent, saying why. Arguments
 * are compared as values (key order does not matter), or as the text the model wrote when it does
 * not parse.
 */
import { canonicalJson } from '../audit/canonical';

export class LoopGuard {
  private last: string | undefined;
  private repeats = 0;

  constructor(readonly limit: number) {
    if (!(limit >= 2)) throw new Error('the loop guard needs a limit of at least 2');
  }

  /**
   * Counts a call. Returns the reason to stop when it is the `limit`-th identical call in a row (the
   * call is then not made), undefined otherwise.
   */
  check(toolName: string, args: unknown): string | undefined {
    const key = `${toolName}\u0000${canonicalJson(args)}`;
    this.repeats = key === this.last ? this.repeats + 1 : 1;
    this.last = key;
    if (this.repeats < this.limit) return undefined;
    return `the model called ${toolName} with the same arguments ${this.repeats} times in a row`;
  }
}
