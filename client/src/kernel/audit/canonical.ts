/**
 * The canonical JSON form the hash chain is computed over (see chain.ts).
 *
 * It is `JSON.stringify` with its value rules (`toJSON` is called; `undefined`, functions and
 * symbols are dropped from objects and become `null` in arrays; NaN and ±Infinity become `null`;
 * boxed primitives are unboxed) and two more: object keys are sorted by UTF-16 code unit (the order
 * of `Array.prototype.sort`), and there is no whitespace. A BigInt or a cycle cannot be written and
 * throws a TypeError, as `JSON.stringify` does.
 *
 * The form is stable under a JSON round trip: `canonicalJson(JSON.parse(canonicalJson(x)))` is
 * `canonicalJson(x)`, so a record read back from the log hashes to what was written.
 */
export function canonicalJson(value: unknown): string {
  // Fast path: when every object's keys are already in sorted order (the log builds records so, and
  // a record parsed from its line is so), the canonical form is what JSON.stringify writes.
  const text = inCanonicalOrder(value, 0) ? JSON.stringify(value) : write(value, []);
  if (text === undefined) throw new TypeError('the value has no JSON form');
  return text;
}

/** True when JSON.stringify would write `value` canonically: plain objects with sorted keys, arrays, Dates. */
function inCanonicalOrder(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > 64) return false; // deep (or cyclic): the careful path decides
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i], depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Date.prototype) return true;
  if (prototype !== Object.prototype && prototype !== null) return false; // toJSON, Map, boxed values…: the careful path
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && !(keys[i - 1] < keys[i])) return false;
    if (!inCanonicalOrder((value as Record<string, unknown>)[keys[i]], depth + 1)) return false;
  }
  return true;
}

function unbox(value: object): unknown {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return (value as { toJSON(): unknown }).toJSON();
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    return value.valueOf();
  return value;
}

function write(input: unknown, stack: object[]): string | undefined {
  const value = input !== null && typeof input === 'object' ? unbox(input) : input;
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('a BigInt has no JSON form');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (stack.includes(object)) throw new TypeError('a value that contains itself has no JSON form');
  stack.push(object);
  try {
    return Array.isArray(object)
      ? writeArray(object, stack)
      : writeObject(object as Record<string, unknown>, stack);
  } finally {
    stack.pop();
  }
}

function writeArray(items: unknown[], stack: object[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++)
    out += `${i ? ',' : ''}${write(items[i], stack) ?? 'null'}`;
  return `${out}]`;
}

function writeObject(object: Record<string, unknown>, stack: object[]): string {
  let out = '{';
  let first = true;
  for (const key of Object.keys(object).sort()) {
    const text = write(object[key], stack);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}
