/**
 * What kind of JSON-RPC 2.0 message an object is, told by looking at it rather than by the SDK's
 * schemas. The SDK tells a message's kind by parsing it against each schema in turn (zod), and a
 * parse that fails builds its error in full: a request arriving at the gateway failed two such
 * parses before it was taken for a request, and a server's answer was parsed four times on its way
 * in (bench/gateway-overhead.mjs, bench/call-overhead.mjs). Each check here accepts only messages
 * the SDK's schema accepts too (`JSONRPCRequestSchema` and its kin in the pinned SDK's types): a
 * message with `_meta`, whose shape the SDK checks further, is left to the SDK's own parse.
 */
export type PlainKind = 'request' | 'notification' | 'result' | undefined;

type Loose = Record<string, unknown>;

function isPlainObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/** Params, or a result: an object, without `_meta` (left to the SDK's schema). */
function plainBody(value: unknown): boolean {
  return isPlainObject(value) && value._meta === undefined;
}

/** Only these keys, each optional (the envelope is strict in the SDK: an extra key fails it). */
function onlyKeys(message: Loose, allowed: readonly string[]): boolean {
  for (const key in message) if (!allowed.includes(key)) return false;
  return true;
}

const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'] as const;
const NOTIFICATION_KEYS = ['jsonrpc', 'method', 'params'] as const;
const RESULT_KEYS = ['jsonrpc', 'id', 'result'] as const;

/**
 * A request, notification or successful response the SDK's schemas accept as they are; undefined
 * for any other message (an error response, one with `_meta`, one that is not JSON-RPC at all),
 * which the SDK's own parsing judges.
 */
export function plainKind(message: unknown): PlainKind {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0') return undefined;
  const params = message.params;
  if (typeof message.method === 'string') {
    if (params !== undefined && !plainBody(params)) return undefined;
    if (message.id === undefined)
      return onlyKeys(message, NOTIFICATION_KEYS) ? 'notification' : undefined;
    return isRequestId(message.id) && onlyKeys(message, REQUEST_KEYS) ? 'request' : undefined;
  }
  if ('result' in message && isRequestId(message.id) && plainBody(message.result))
    return onlyKeys(message, RESULT_KEYS) ? 'result' : undefined;
  return undefined;
}
