import { strict as assert } from 'node:assert';
import { parseCommandLine } from '../../../client/src/cli/flags';
import { SERVE_FLAGS, serveOptions } from '../../../client/src/cli/serveCommand';
import { gatewayAgentId } from '../../../client/src/kernel/agent/identity';
import { HttpFront } from '../../../client/src/kernel/gateway/http/httpFront';
import { isLoopbackAddress } from '../../../client/src/kernel/gateway/http/listenAddress';
import { UserRate } from '../../../client/src/kernel/gateway/http/userRate';

const serve = (...args: string[]) => serveOptions(parseCommandLine('mgp serve', args, SERVE_FLAGS));

describe('the team gateway: flags, identities, limits', () => {
  it('listens beyond loopback only with OAuth, and takes OAuth only over https (http on loopback)', () => {
    assert.throws(
      () => serve('--http', '8080', '--bind', '0.0.0.0'),
      /--bind 0\.0\.0\.0 needs --oauth-issuer/,
    );
    assert.throws(
      () => serve('--http', '8080', '--oauth-issuer', 'http://sso.example.com'),
      /--oauth-issuer must be https/,
    );
    assert.throws(
      () => serve('--http', '8080', '--resource', 'https://x/mcp'),
      /--resource is for --oauth-issuer/,
    );
    assert.throws(() => serve('--bind', '127.0.0.1'), /--bind is for --http/);
    assert.equal(
      serve('--config', 'mgp.toml', '--expose', 'all').team,
      undefined,
      'stdio as before',
    );
    const team = serve(
      '--http',
      '8080',
      '--bind',
      '0.0.0.0',
      '--oauth-issuer',
      'https://sso.example.com',
      '--metrics',
    );
    assert.deepEqual(team.team, {
      bind: '0.0.0.0',
      metrics: true,
      oauth: {
        issuer: 'https://sso.example.com',
        resource: undefined,
        userClaim: undefined,
        scopes: [],
      },
      perUser: { sessions: 8, requestsPerMinute: 600 },
    });
    assert.equal(serve('--http', '0', '--bind', '127.0.0.1').team?.bind, '127.0.0.1');
  });

  it('refuses to listen beyond loopback with a printed token alone', async () => {
    await assert.rejects(
      HttpFront.listen({ port: 0, bind: '0.0.0.0', connect: async () => undefined }),
      /listens on 0\.0\.0\.0 only with OAuth/,
    );
    assert.ok(isLoopbackAddress('127.0.0.2') && isLoopbackAddress('::1'));
    assert.ok(
      !isLoopbackAddress('0.0.0.0') && !isLoopbackAddress('10.0.0.1') && !isLoopbackAddress('::'),
    );
  });

  it('names each caller agent.gateway.<client>@<user>, the user reduced to a safe slug', () => {
    assert.equal(gatewayAgentId('Claude Code', 'alice'), 'agent.gateway.claude-code@alice');
    assert.equal(gatewayAgentId('x', 'Bob@Example.COM'), 'agent.gateway.x@bob-example.com');
    assert.equal(gatewayAgentId('x', '\u202e'), 'agent.gateway.x@unknown');
    assert.equal(gatewayAgentId('x'), 'agent.gateway.x');
  });

  it("counts each person's requests in a sliding minute", () => {
    let now = 0;
    const rate = new UserRate(2, () => now);
    assert.equal(rate.take('a'), 0);
    now = 30_000;
    assert.equal(rate.take('a'), 0);
    assert.equal(rate.take('a'), 30, 'wait until the first leaves the window');
    assert.equal(rate.take('b'), 0, 'another person has their own');
    now = 60_001;
    assert.equal(rate.take('a'), 0);
  });
});
