import type { Range } from './diagnostic';
import { PointerLocation, pointerOf, scanRanges } from './rangeScanner';

export { pointerOf };
export type { PointerLocation };

/**
 * JSON pointer → the ranges of its key, value and table header, so that an error at
 * `/servers/1/transport` lands on the exact text. Scanned from the text once, the first time a location is asked for.
 */
export class PointerMap {
  private ranges: Map<string, PointerLocation> | undefined;

  constructor(private readonly text: string) {}

  private all(): Map<string, PointerLocation> {
    return (this.ranges ??= scanRanges(this.text));
  }

  get(pointer: string): PointerLocation | undefined {
    return this.all().get(pointer);
  }

  /** Every location in the document, for look-ups by position (hover, outline). */
  entries(): IterableIterator<[string, PointerLocation]> {
    return this.all().entries();
  }
}

/** The best range for a pointer: the wanted part, else the nearest ancestor that has one. */
export function locate(
  map: PointerMap,
  pointer: string,
  prefer: (keyof PointerLocation)[],
): Range | undefined {
  let current = pointer;
  for (;;) {
    const location = map.get(current);
    if (location) {
      for (const part of prefer) if (location[part]) return location[part];
      const any = location.header ?? location.key ?? location.value;
      if (any) return any;
    }
    if (current === '') return undefined;
    current = current.slice(0, current.lastIndexOf('/'));
  }
}
