import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch whose response bodies may not carry a message over `maxBytes`: a JSON body in all, or one
 * server-sent event (the bytes between blank lines). Past the limit the body errors with a clear
 * message instead of growing without bound; the SDK reports it as a transport error.
 */
export function sizeLimitedFetch(maxBytes: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const type = response.headers.get('content-type') ?? '';
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (type.includes('application/json') && declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(
        `the server's response of ${declared} bytes exceeds the maximum message size of ${maxBytes} bytes`,
      );
    }
    const limited = response.body.pipeThrough(
      messageSizeGuard(maxBytes, type.includes('text/event-stream')),
    );
    return new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function messageSizeGuard(
  maxBytes: number,
  eventStream: boolean,
): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  let lastByte = -1;
  return new TransformStream({
    transform(chunk, controller) {
      for (const byte of chunk) {
        // In an event stream a blank line ends one event; the size counts per event.
        if (eventStream && byte === 0x0a && lastByte === 0x0a) size = 0;
        else if (byte !== 0x0d) size++;
        if (byte !== 0x0d) lastByte = byte;
      }
      if (size > maxBytes) {
        controller.error(
          new Error(`the server sent a message over the maximum message size of ${maxBytes} bytes`),
        );
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
