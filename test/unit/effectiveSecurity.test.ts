import { strict as assert } from 'node:assert';
import { effectiveSecurity } from '../../client/src/kernel/security/effectiveSecurity';
import { nameWords, riskFromName } from '../../client/src/kernel/security/nameHeuristics';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});

describe('effective security metadata (MGP §4)', () => {
  it("takes the server's own security object when nothing says more", () => {
    const s = effectiveSecurity(
      tool('lookup', {
        security: {
          risk_level: 'moderate',
          permissions_required: ['network.outbound'],
          side_effects: ['network'],
          validator: 'network_restricted',
        },
      }),
      undefined,
    );
    assert.equal(s.risk_level, 'moderate');
    assert.deepEqual(s.permissions_required, ['network.outbound']);
    assert.equal(s.validator, 'network_restricted');
    assert.equal(s.sources.risk_level, 'server');
  });

  it('reads MCP annotations: read-only is safe, destructive is dangerous, open world means network', () => {
    assert.equal(
      effectiveSecurity(tool('peek', { annotations: { readOnlyHint: true } }), undefined)
        .risk_level,
      'safe',
    );
    const destructive = effectiveSecurity(
      tool('wipe_cache_entry', {
        annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      }),
      undefined,
    );
    assert.equal(destructive.risk_level, 'dangerous');
    assert.equal(destructive.reversible, false);
    assert.deepEqual(destructive.side_effects, ['network']);
    assert.equal(
      effectiveSecurity(
        tool('tweak', { annotations: { readOnlyHint: false, destructiveHint: false } }),
        undefined,
      ).risk_level,
      'moderate',
    );
  });

  it('the highest risk among server, annotations and name wins: a lying server cannot talk it down', () => {
    const lying = effectiveSecurity(
      tool('delete_all_records', {
        annotations: { readOnlyHint: true },
        security: { risk_level: 'safe' },
      }),
      undefined,
    );
    assert.equal(lying.risk_level, 'dangerous');
    assert.equal(lying.sources.risk_level, 'heuristic');
    assert.equal(lying.serverClaim, 'safe');
  });

  it('config always wins, field by field, and may lower or raise what the server says', () => {
    const raised = effectiveSecurity(
      tool('peek_notes', { annotations: { readOnlyHint: true }, security: { risk_level: 'safe' } }),
      { risk_level: 'dangerous', side_effects: ['filesystem'] },
    );
    assert.equal(raised.risk_level, 'dangerous');
    assert.equal(raised.sources.risk_level, 'config');
    assert.deepEqual(raised.side_effects, ['filesystem']);
    assert.equal(raised.serverClaim, 'safe');
    const lowered = effectiveSecurity(
      tool('delete_tmp', {
        security: { risk_level: 'dangerous', permissions_required: ['filesystem.write'] },
      }),
      { risk_level: 'moderate' },
    );
    assert.equal(lowered.risk_level, 'moderate');
    assert.deepEqual(
      lowered.permissions_required,
      ['filesystem.write'],
      "fields config leaves out keep the server's",
    );
  });

  it('a tool nobody says anything about is moderate, by default', () => {
    const s = effectiveSecurity(tool('echo'), undefined);
    assert.equal(s.risk_level, 'moderate');
    assert.equal(s.sources.risk_level, 'default');
  });

  it('ignores malformed security fields instead of trusting them', () => {
    const s = effectiveSecurity(
      tool('x', {
        security: {
          risk_level: 'harmless',
          side_effects: ['filesystem', 'teleport'],
          validator: 'trust-me',
        },
      }),
      undefined,
    );
    assert.equal(s.risk_level, 'moderate');
    assert.deepEqual(s.side_effects, ['filesystem']);
    assert.equal(s.validator, undefined);
  });

  it('splits identifiers and reads risk from names, only ever raising it', () => {
    assert.deepEqual(nameWords('createFileInDir'), ['create', 'file', 'in', 'dir']);
    assert.deepEqual(nameWords('HTTPRequest-send_now'), ['http', 'request', 'send', 'now']);
    assert.equal(riskFromName('execute_command'), 'dangerous');
    assert.equal(riskFromName('run_code'), 'dangerous');
    assert.equal(riskFromName('write_note'), 'moderate');
    assert.equal(riskFromName('list_notes'), undefined);
    assert.equal(riskFromName('get-sum'), undefined);
  });
});

describe("a server's code_safety declaration only adds restrictions (MGP §7.3)", () => {
  const declared = (code_safety: Record<string, unknown>, override?: Record<string, unknown>) =>
    effectiveSecurity(
      tool('run_code', { security: { risk_level: 'moderate', code_safety } }),
      override,
    ).code_safety;

  it('a level below standard becomes standard; a stricter one is kept; an unknown one is strict', () => {
    assert.equal(declared({ level: 'unrestricted' })?.level, 'standard');
    assert.equal(declared({})?.level, 'standard');
    assert.equal(declared({ level: 'strict' })?.level, 'strict');
    assert.equal(declared({ level: 'readonly' })?.level, 'readonly');
    assert.equal(declared({ level: 'lenient' })?.level, 'strict');
  });

  it("marks the server's lists as additions to the kernel's, and keeps only well-formed fields", () => {
    const spec = declared({
      level: 'strict',
      blocked_imports: ['json', 7],
      allowed_imports: 'os',
      max_code_size_bytes: -5,
      extends_defaults: false,
      surprise: true,
    });
    assert.deepEqual(spec, {
      level: 'strict',
      blocked_imports: ['json'],
      extends_defaults: true,
    });
  });

  it('config decides outright, loosening included', () => {
    const spec = declared({ level: 'readonly' }, { code_safety: { level: 'unrestricted' } });
    assert.deepEqual(spec, { level: 'unrestricted' });
  });
});
