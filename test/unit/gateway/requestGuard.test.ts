import { strict as assert } from 'node:assert';
import {
  loopbackHost,
  loopbackOrigin,
  refusal,
} from '../../../client/src/kernel/gateway/http/requestGuard';

describe('gateway HTTP request guard', () => {
  it('accepts loopback Host headers, with or without a port', () => {
    for (const host of ['127.0.0.1:8080', 'localhost', 'LOCALHOST:1', '[::1]:3000'])
      assert.equal(loopbackHost(host), true, host);
  });

  it('refuses any other Host, however it is dressed up', () => {
    for (const host of [
      undefined,
      '',
      'evil.example.com',
      '127.0.0.1.evil.example.com',
      'localhost@evil.example.com',
      'localhost.evil.example.com:80',
      '10.0.0.1',
      '0.0.0.0:8080',
      'localhost:80/path',
    ])
      assert.equal(loopbackHost(host), false, String(host));
  });

  it('accepts no Origin (not a browser) or a loopback one, and refuses the rest', () => {
    assert.equal(loopbackOrigin(undefined), true);
    assert.equal(loopbackOrigin('http://localhost:5173'), true);
    assert.equal(loopbackOrigin('https://127.0.0.1'), true);
    for (const origin of [
      'null',
      'http://evil.example.com',
      'file://',
      'http://127.0.0.1.nip.io',
      'chrome-extension://abc',
    ])
      assert.equal(loopbackOrigin(origin), false, origin);
  });

  it('answers 403 for a foreign Host or Origin before it looks at the token, then 401 without the token', () => {
    const token = 'secret-token';
    const bearer = `Bearer ${token}`;
    assert.equal(refusal({ host: 'evil.example.com', authorization: bearer }, token)?.status, 403);
    assert.equal(
      refusal(
        { host: '127.0.0.1:1', origin: 'http://evil.example.com', authorization: bearer },
        token,
      )?.status,
      403,
    );
    assert.equal(refusal({ host: '127.0.0.1:1' }, token)?.status, 401);
    assert.equal(
      refusal({ host: '127.0.0.1:1', authorization: 'Bearer secret-tokeN' }, token)?.status,
      401,
    );
    assert.equal(
      refusal({ host: '127.0.0.1:1', authorization: `Basic ${token}` }, token)?.status,
      401,
    );
    assert.equal(refusal({ host: '127.0.0.1:1', authorization: bearer }, token), undefined);
  });
});
