import { strict as assert } from 'node:assert';
import { checkConfigDocument } from '../../server/src/check/checkDocument';

describe('language server checks: TOML syntax', () => {
  it('puts an unterminated string at its exact 0-based position', () => {
    const diagnostics = checkConfigDocument('mgp.toml', '[[servers]]\nid = "open\n');
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].code, 'toml-syntax');
    assert.equal(diagnostics[0].severity, 'error');
    assert.equal(diagnostics[0].range.start.line, 1);
    assert.match(diagnostics[0].message, /^TOML syntax error: /);
  });

  it('reports a redefined key on the line that redefines it', () => {
    const [diagnostic] = checkConfigDocument('mcp.toml', 'a = 1\na = 2\n');
    assert.deepEqual(diagnostic.range.start, { line: 1, character: 0 });
  });

  it('accepts valid TOML', () => {
    assert.deepEqual(checkConfigDocument('mgp.toml', '[[servers]]\nid = "a"\ncommand = "node"\n'), []);
  });

  it('gives no diagnostics at all for a config.toml that is not OpenFang, even a broken one', () => {
    assert.deepEqual(checkConfigDocument('config.toml', '[package]\nname = "x\n'), []);
  });

  it('checks a config.toml that is OpenFang', () => {
    assert.equal(checkConfigDocument('config.toml', '[[mcp_servers]]\nname = "x\n').length, 1);
  });
});
