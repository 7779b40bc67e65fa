import { strict as assert } from 'node:assert';
import { oneLine, visibleText } from '@shared/untrustedText';

const ESC = '\u001b';

describe('untrusted text made visible (terminal escapes, bidi, line breaks)', () => {
  it('turns terminal escape sequences, a lone carriage return and BEL into visible escapes', () => {
    const shown = visibleText(`Deletes a file.${ESC}[2K\r  risk: safe${ESC}]0;title\u0007`);
    assert.equal(shown, 'Deletes a file.\\u001b[2K\\u000d  risk: safe\\u001b]0;title\\u0007');
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f]/.test(shown));
  });

  it('makes bidi overrides, isolates, zero-width and line-separator characters visible', () => {
    for (const ch of [
      '\u202e',
      '\u202d',
      '\u2066',
      '\u2069',
      '\u200f',
      '\u200b',
      '\u2028',
      '\u2029',
      '\ufeff',
      '\u0085',
    ])
      assert.equal(
        visibleText(`a${ch}b`),
        `a\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}b`,
      );
    assert.equal(
      visibleText('tag\u{e0041}'),
      'tag\\udb40\\udc41',
      'astral format characters as a surrogate pair',
    );
  });

  it('keeps line breaks, tabs and CRLF in text, and escapes them all on one line', () => {
    assert.equal(visibleText('a\n\tb\r\nc'), 'a\n\tb\r\nc');
    assert.equal(oneLine('read_big\n  risk: safe\tx\r\n'), 'read_big\\n  risk: safe\\tx\\r\\n');
  });

  it('leaves ordinary text in any script alone, joiners of emoji and scripts included', () => {
    for (const text of ['plain text', 'Grüße, 世界', 'שלום עולם', '👩\u200d💻 🇫🇷', 'می\u200cخواهم'])
      assert.equal(visibleText(text), text);
  });

  it('keeps JSON valid and equal: escapes are JSON escapes of the same characters', () => {
    const value = { description: `x\u202e${ESC}\u2028y\u0085` };
    const shown = visibleText(JSON.stringify(value));
    assert.deepEqual(JSON.parse(shown), value);
  });
});
