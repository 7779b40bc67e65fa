import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
  endpointOrigin,
  judgeStoredKey,
  parseStoredKey,
  storedKeyText,
  type StoredKey,
} from '../../../client/src/kernel/llm/endpointKey';
import { OpenAiCompatibleProvider } from '../../../client/src/kernel/llm/openAiCompatible';
import { repoRoot } from '../../repoRoot';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startScriptedModel } = require(
  join(repoRoot(), 'test/fixtures/models/scriptedModel.js'),
) as {
  startScriptedModel(options: object): Promise<{
    url: string;
    requests: unknown[];
    close(): Promise<void>;
  }>;
};

/** Issue 24, finding 2: a stored key goes only to the origin it was entered for. */
describe('model API key bound to the origin it was entered for', () => {
  const bound = (url: string, key: string) => parseStoredKey(storedKeyText(url, key));

  it('is sent to its own origin, whatever the path, and with the default port written or not', () => {
    const stored = bound('https://api.example.com/v1', 'sk-1');
    for (const url of [
      'https://api.example.com/v1',
      'https://API.example.com:443/other/path',
      'https://api.example.com',
    ])
      assert.deepEqual(judgeStoredKey(stored, url), { kind: 'send', key: 'sk-1' }, url);
  });

  it('is never sent to another scheme, host or port: the person is asked for a key for that one', () => {
    const stored = bound('https://api.example.com/v1', 'sk-1');
    for (const url of [
      'http://api.example.com/v1',
      'https://api.example.com:8443/v1',
      'https://api.example.com.evil.test/v1',
      'https://evil.test/v1?https://api.example.com',
      'https://api.example.com@evil.test/v1',
      'http://127.0.0.1:11434/v1',
    ]) {
      const decision = judgeStoredKey(stored, url);
      assert.equal(decision.kind, 'other-origin', url);
      assert.ok(!JSON.stringify(decision).includes('sk-1'), 'the decision does not carry the key');
    }
  });

  it('treats a key stored as plain text (before binding) as unbound: it needs a confirmation', () => {
    const legacy = parseStoredKey('sk-legacy');
    assert.deepEqual(legacy, { key: 'sk-legacy' });
    assert.deepEqual(judgeStoredKey(legacy, 'http://localhost:11434/v1'), {
      kind: 'unbound',
      key: 'sk-legacy',
      origin: 'http://localhost:11434',
    });
    assert.deepEqual(parseStoredKey('{not json'), { key: '{not json' });
    assert.deepEqual(parseStoredKey('{"origin":"https://a.test","key":"k"}'), {
      key: '{"origin":"https://a.test","key":"k"}',
    });
  });

  it('sends no key when none is stored, and none when an empty one is bound to the origin', () => {
    assert.deepEqual(judgeStoredKey(undefined, 'http://localhost:1/v1'), {
      kind: 'send',
      key: undefined,
    });
    assert.deepEqual(judgeStoredKey(bound('http://localhost:1/v1', ''), 'http://localhost:1/x'), {
      kind: 'send',
      key: undefined,
    });
  });

  it('refuses endpoints that are not http(s) URLs', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', ''])
      assert.throws(() => endpointOrigin(url), /not (a|an http\(s\)) URL/);
  });

  it('over a real loopback endpoint: the bound key reaches its origin; another origin gets no request', async () => {
    const right = await startScriptedModel({
      apiKey: 'sk-right',
      rules: [{ match: 'hello', reply: 'hi' }],
    });
    const other = await startScriptedModel({ rules: [{ match: 'hello', reply: 'hi' }] });
    let stored: StoredKey | undefined = bound(right.url, 'sk-right');
    const asked: string[] = [];
    // What the editor does (vscode/modelKey.ts) without a person: refuse what is not bound to the URL.
    const keyFor = async (url: string) => {
      asked.push(url);
      const decision = judgeStoredKey(stored, url);
      if (decision.kind !== 'send') throw new Error(`no key for ${decision.origin}`);
      return decision.key;
    };
    const request = { messages: [{ role: 'user' as const, content: 'hello' }] };
    try {
      const answer = await new OpenAiCompatibleProvider({
        baseUrl: right.url,
        model: 'm',
        apiKey: keyFor,
      }).complete(request, new AbortController().signal);
      assert.equal(answer.content, 'hi');
      assert.equal(right.requests.length, 1);

      await assert.rejects(
        new OpenAiCompatibleProvider({ baseUrl: other.url, model: 'm', apiKey: keyFor }).complete(
          request,
          new AbortController().signal,
        ),
        /no key for http:\/\/127\.0\.0\.1:\d+/,
      );
      assert.equal(other.requests.length, 0, 'nothing reached the other origin');
      assert.deepEqual(asked, [`${right.url}/chat/completions`, `${other.url}/chat/completions`]);

      stored = bound(other.url, '');
      await new OpenAiCompatibleProvider({
        baseUrl: other.url,
        model: 'm',
        apiKey: keyFor,
      }).complete(request, new AbortController().signal);
      assert.equal(other.requests.length, 1, 'a key (here none) entered for it is used');
    } finally {
      await right.close();
      await other.close();
    }
  });
});
