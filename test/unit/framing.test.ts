import { strict as assert } from 'node:assert';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import {
  type Decoded,
  type DecoderOptions,
  FramingError,
  MessageDecoder,
  detectFraming,
  encodeContentLength,
  encodeDual,
  encodeNewline,
} from '../../client/src/kernel/transport/framing';

const messages = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'héllo € 𝄞 日本' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 'x', result: { content: [{ type: 'text', text: '✓ done — ok' }] } },
];

function decodeChunks(
  chunks: Buffer[],
  options: DecoderOptions = {},
): { results: Decoded[]; decoder: MessageDecoder } {
  const decoder = new MessageDecoder(options);
  const results: Decoded[] = [];
  for (const chunk of chunks) {
    decoder.push(chunk);
    for (let r = decoder.next(); r; r = decoder.next()) results.push(r);
  }
  return { results, decoder };
}

/** What came out, with errors reduced to their kind so lists compare with deepEqual. */
function summary(results: Decoded[]): unknown[] {
  return results.map((r) => (r.error ? { error: r.error.kind } : { message: r.message }));
}

function contentLengthFrame(body: string | Buffer, headers: string[] = []): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return Buffer.concat([
    Buffer.from([`Content-Length: ${bytes.length}`, ...headers, '', ''].join('\r\n'), 'latin1'),
    bytes,
  ]);
}

/** Feeds `stream` split in two at every byte position, and byte by byte; each run must give `expected`. */
function assertAtEverySplit(
  stream: Buffer,
  expected: unknown[],
  options: DecoderOptions = {},
): void {
  for (let at = 0; at <= stream.length; at++) {
    const { results } = decodeChunks([stream.subarray(0, at), stream.subarray(at)], options);
    assert.deepEqual(summary(results), expected, `split at byte ${at}`);
  }
  const bytes = [...stream].map((b) => Buffer.from([b]));
  assert.deepEqual(summary(decodeChunks(bytes, options).results), expected, 'byte by byte');
}

const expectedMessages = messages.map((message) => ({ message }));
const newlineStream = Buffer.concat(messages.map(encodeNewline));
const contentLengthStream = Buffer.concat([
  encodeContentLength(messages[0]),
  contentLengthFrame(JSON.stringify(messages[1]), [
    'Content-Type: application/vscode-jsonrpc; charset=utf-8',
  ]),
  encodeContentLength(messages[2]),
]);

describe('framing: newline-delimited JSON', () => {
  it('decodes 3 messages split at every byte position', () => {
    assertAtEverySplit(newlineStream, expectedMessages, { framing: 'newline' });
  });

  it('accepts CRLF line ends and skips blank lines', () => {
    const stream = Buffer.from(
      `\r\n${JSON.stringify(messages[1])}\r\n\r\n  \n${JSON.stringify(messages[2])}\n`,
    );
    assertAtEverySplit(stream, expectedMessages.slice(1), { framing: 'newline' });
  });

  it('reports invalid JSON and carries on with the next line', () => {
    const stream = Buffer.from(`{"jsonrpc":"2.0",\n${JSON.stringify(messages[1])}\nnot json\n`);
    const { results } = decodeChunks([stream], { framing: 'newline' });
    assert.deepEqual(summary(results), [
      { error: 'invalid-json' },
      expectedMessages[1],
      { error: 'invalid-json' },
    ]);
    assert.ok(results[0].error instanceof FramingError);
    assert.match(String(results[0].error?.message), /invalid JSON/);
  });

  it('skips an oversized line to the next newline, at every split', () => {
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'p'.repeat(150) } });
    const stream = Buffer.from(`${big}\n${JSON.stringify(messages[1])}\n`);
    assertAtEverySplit(stream, [{ error: 'oversized' }, expectedMessages[1]], {
      framing: 'newline',
      maxMessageBytes: 100,
    });
    const { results } = decodeChunks([stream], { framing: 'newline', maxMessageBytes: 100 });
    assert.match(String(results[0].error?.message), /maximum of 100 bytes/);
  });

  it('accepts a line of exactly the maximum size', () => {
    const line = encodeNewline(messages[1]);
    const max = line.length - 1;
    assertAtEverySplit(Buffer.concat([line, line]), [expectedMessages[1], expectedMessages[1]], {
      framing: 'newline',
      maxMessageBytes: max,
    });
    assertAtEverySplit(line, [{ error: 'oversized' }], {
      framing: 'newline',
      maxMessageBytes: max - 1,
    });
  });
});

describe('framing: Content-Length headers', () => {
  it('decodes 3 messages split at every byte position', () => {
    assertAtEverySplit(contentLengthStream, expectedMessages, { framing: 'content-length' });
  });

  it('counts the length in UTF-8 bytes and survives splits inside a multibyte character', () => {
    const frame = encodeContentLength(messages[0]);
    const text = JSON.stringify(messages[0]);
    assert.equal(
      frame.toString('latin1').split('\r\n')[0],
      `Content-Length: ${Buffer.byteLength(text)}`,
    );
    assert.notEqual(Buffer.byteLength(text), text.length);
    const clef = frame.indexOf(Buffer.from('𝄞'));
    for (const at of [clef + 1, clef + 2, clef + 3]) {
      assert.deepEqual(summary(decodeChunks([frame.subarray(0, at), frame.subarray(at)]).results), [
        expectedMessages[0],
      ]);
    }
  });

  it('accepts other headers, any header-name case, LF-only line ends and blank lines between messages', () => {
    const body = JSON.stringify(messages[2]);
    const stream = Buffer.concat([
      Buffer.from(
        `content-type: application/json\r\nX-Trace: 1\r\ncontent-length:${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
      Buffer.from(`\r\n\r\nCONTENT-LENGTH:   ${Buffer.byteLength(body)}  \n\n${body}`),
    ]);
    assertAtEverySplit(stream, [expectedMessages[2], expectedMessages[2]], {
      framing: 'content-length',
    });
  });

  it('skips exactly the bytes of an oversized message, even when they look like headers', () => {
    const trap = `{"pad":"${'x'.repeat(40)}\r\n\r\nContent-Length: 2\r\n\r\n{}"}`;
    const stream = Buffer.concat([contentLengthFrame(trap), encodeContentLength(messages[1])]);
    assertAtEverySplit(stream, [{ error: 'oversized' }, expectedMessages[1]], {
      framing: 'content-length',
      maxMessageBytes: 60,
    });
    const { results } = decodeChunks([stream], { framing: 'content-length', maxMessageBytes: 60 });
    assert.match(
      String(results[0].error?.message),
      new RegExp(`message of ${Buffer.byteLength(trap)} bytes exceeds the maximum of 60 bytes`),
    );
  });

  it('reports invalid JSON and invalid UTF-8 bodies and carries on', () => {
    const stream = Buffer.concat([
      contentLengthFrame('{"jsonrpc":'),
      contentLengthFrame(Buffer.from([0x22, 0xc3, 0x28, 0x22])),
      encodeContentLength(messages[1]),
    ]);
    const { results } = decodeChunks([stream], { framing: 'content-length' });
    assert.deepEqual(summary(results), [
      { error: 'invalid-json' },
      { error: 'invalid-json' },
      expectedMessages[1],
    ]);
    assert.match(String(results[1].error?.message), /UTF-8/);
  });

  it('reports a header block without a usable Content-Length, or a stray line, and carries on', () => {
    const stream = Buffer.concat([
      Buffer.from('Content-Type: application/json\r\n\r\n'),
      Buffer.from('Content-Length: twelve\r\n\r\n'),
      Buffer.from('server starting…\r\n'),
      encodeContentLength(messages[1]),
    ]);
    const { results } = decodeChunks([stream], { framing: 'content-length' });
    assert.deepEqual(summary(results), [
      { error: 'invalid-header' },
      { error: 'invalid-header' },
      { error: 'invalid-header' },
      expectedMessages[1],
    ]);
    assert.match(String(results[0].error?.message), /without Content-Length/);
    assert.match(String(results[1].error?.message), /invalid Content-Length "twelve"/);
  });

  it('drops an overlong header line and carries on', () => {
    const stream = Buffer.concat([
      Buffer.from(`X-Junk: ${'j'.repeat(9000)}\r\n`),
      encodeContentLength(messages[1]),
    ]);
    assertAtEverySplit(stream, [{ error: 'invalid-header' }, expectedMessages[1]], {
      framing: 'content-length',
    });
  });
});

describe('framing: detection', () => {
  it('detects newline framing from a leading { and keeps it, at every split', () => {
    assertAtEverySplit(newlineStream, expectedMessages);
    const { decoder } = decodeChunks([newlineStream]);
    assert.equal(decoder.framing, 'newline');
  });

  it('detects content-length framing from the header, at every split', () => {
    assertAtEverySplit(contentLengthStream, expectedMessages);
    const { decoder } = decodeChunks([contentLengthStream]);
    assert.equal(decoder.framing, 'content-length');
  });

  it('skips leading whitespace, ignores case, and accepts Content-Type first', () => {
    const body = JSON.stringify(messages[1]);
    const stream = Buffer.from(
      `\r\n \tcontent-TYPE: application/json\r\nContent-length: ${body.length}\r\n\r\n${body}`,
    );
    assertAtEverySplit(stream, [expectedMessages[1]]);
    assert.equal(decodeChunks([stream]).decoder.framing, 'content-length');
    assert.equal(
      decodeChunks([Buffer.from('  \n[{"jsonrpc":"2.0","method":"a"}]\n')]).decoder.framing,
      'newline',
    );
  });

  it('waits for enough bytes to decide', () => {
    assert.equal(detectFraming(Buffer.from('Conte')), undefined);
    assert.equal(detectFraming(Buffer.from('CONTENT-LENGTH:')), 'content-length');
    assert.equal(detectFraming(Buffer.from('{')), 'newline');
    assert.equal(detectFraming(Buffer.from('Hello')), 'newline');
    const decoder = new MessageDecoder();
    decoder.push(Buffer.from('\n Content-Le'));
    assert.equal(decoder.framing, undefined);
    assert.equal(decoder.next(), undefined);
  });

  it('reads anything else as newline framing: the junk line fails, the next line is read', () => {
    const stream = Buffer.from(`Server ready\n${JSON.stringify(messages[1])}\n`);
    const { results, decoder } = decodeChunks([stream]);
    assert.equal(decoder.framing, 'newline');
    assert.deepEqual(summary(results), [{ error: 'invalid-json' }, expectedMessages[1]]);
  });

  it('does not detect when the framing is forced', () => {
    const { results, decoder } = decodeChunks([contentLengthStream], { framing: 'newline' });
    assert.equal(decoder.framing, 'newline');
    assert.ok(results.some((r) => r.error?.kind === 'invalid-json'));
    const forced = decodeChunks([newlineStream], { framing: 'content-length' });
    assert.deepEqual(
      summary(forced.results),
      messages.map(() => ({ error: 'invalid-header' })),
    );
  });
});

describe('framing: encoders', () => {
  it('round-trips through both framings', () => {
    assert.deepEqual(
      summary(decodeChunks(messages.map(encodeContentLength)).results),
      expectedMessages,
    );
    assert.deepEqual(summary(decodeChunks(messages.map(encodeNewline)).results), expectedMessages);
    assert.throws(() => encodeContentLength(undefined), TypeError);
  });

  it('writes a dual frame that a content-length reader and a newline reader each read once', () => {
    const stream = Buffer.concat(messages.map(encodeDual));
    assertAtEverySplit(stream, expectedMessages, { framing: 'content-length' });
    assertAtEverySplit(stream, expectedMessages, {});
    const newline = decodeChunks([stream], { framing: 'newline' }).results.filter((r) => !r.error);
    assert.deepEqual(summary(newline), expectedMessages);
    // The official SDK's own line reader, as a newline server uses it: junk lines throw, the message follows.
    const sdk = new ReadBuffer();
    sdk.append(encodeDual(messages[0]));
    const read: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      try {
        read.push(sdk.readMessage());
      } catch {
        read.push('error');
      }
    }
    assert.deepEqual(read, ['error', 'error', messages[0], null]);
  });
});

describe('oversized messages name their request', () => {
  const decode = (bytes: string, framing: 'newline' | 'content-length', max: number) => {
    const decoder = new MessageDecoder({ framing, maxMessageBytes: max });
    decoder.push(Buffer.from(bytes));
    const results = [];
    for (let r = decoder.next(); r; r = decoder.next()) results.push(r);
    return results;
  };

  it('finds the id at the start of an oversized line (arriving in pieces)', () => {
    const decoder = new MessageDecoder({ framing: 'newline', maxMessageBytes: 50 });
    decoder.push(Buffer.from(`{"jsonrpc":"2.0","id":7,"result":{"text":"${'x'.repeat(40)}`));
    decoder.push(Buffer.from(`${'x'.repeat(400)}"}}\n{"jsonrpc":"2.0","method":"ping"}\n`));
    const first = decoder.next();
    assert.equal(first?.error?.kind, 'oversized');
    assert.equal(first?.error?.requestId, 7);
    assert.deepEqual(decoder.next()?.message, { jsonrpc: '2.0', method: 'ping' });
  });

  it('finds the id at the end, where the official SDKs put it, and string ids too', () => {
    const [result] = decode(
      `{"result":{"content":[{"type":"text","text":"${'y'.repeat(300)}"}]},"jsonrpc":"2.0","id":"req-\\"9\\""}\n`,
      'newline',
      100,
    );
    assert.equal(result.error?.requestId, 'req-"9"');
  });

  it('does not take a nested "id" for the message\'s own', () => {
    const [result] = decode(
      `{"jsonrpc":"2.0","result":{"id":99,"text":"${'z'.repeat(300)}"}}\n`,
      'newline',
      100,
    );
    assert.equal(result.error?.kind, 'oversized');
    assert.equal(result.error?.requestId, undefined);
  });

  it('works for content-length framing, reporting after skipping exactly the body', () => {
    const body = `{"jsonrpc":"2.0","id":3,"result":{"text":"${'w'.repeat(200)}"}}`;
    const next = '{"jsonrpc":"2.0","method":"ping"}';
    const results = decode(
      `Content-Length: ${body.length}\r\n\r\n${body}Content-Length: ${next.length}\r\n\r\n${next}`,
      'content-length',
      100,
    );
    assert.equal(results[0].error?.requestId, 3);
    assert.deepEqual(results[1].message, { jsonrpc: '2.0', method: 'ping' });
  });
});
