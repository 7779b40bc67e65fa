/**
 * Issue 24, finding 17: server-provided strings (tool names, claims, errors) placed in markdown the
 * editor renders, and in its dialogs. Generated strings over control, bidi, line-separator and
 * markdown characters must render, through a real CommonMark parser, as exactly their visible text:
 * one paragraph, no element of their own, no line break, no invisible character.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { markdownInline, oneLine, visibleText } from '@shared/untrustedText';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as new (options: object) => {
  render(text: string): string;
};
const markdown = new MarkdownIt({ html: true, linkify: true });

const HOSTILE = [
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200b',
  '\u200e',
  '\u200f',
  '\ufeff',
  ...'*_`[]()<>!#$&\\|~-+.:/=',
  '$(check)',
  '](command:mgp.allow)',
  '[safe](https://evil.test)',
  'https://evil.test/x',
  'www.evil.test',
  '<img src=x onerror=alert(1)>',
  '&lt;',
  '&#x202e;',
  '**risk: safe**',
  '# Heading',
  '> quote',
  '1. item',
  '---',
  '    indented',
];

const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HOSTILE),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 2 }),
    ),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(''));

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function decodeEntities(html: string): string {
  return html
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('untrusted text in the editor: markdown and dialogs', () => {
  it('renders markdownInline(text) as one paragraph holding exactly oneLine(text)', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const rendered = markdown.render(markdownInline(text)).trimEnd();
        const shown = oneLine(text);
        if (shown.trim() === '') return;
        const match = /^<p>([\s\S]*)<\/p>$/.exec(rendered);
        assert.ok(match, `one paragraph: ${JSON.stringify(rendered)}`);
        assert.ok(!/<[a-z/]/i.test(match[1]), `no element of its own: ${rendered}`);
        assert.equal(decodeEntities(match[1]).trim(), shown.trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no line break, invisible character or live theme icon in markdownInline', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const inline = markdownInline(text);
        assert.ok(!/[\n\r]/.test(inline));
        for (const ch of inline.replace(/[\u200c\u200d]/g, ''))
          assert.ok(!INVISIBLE.test(ch), `U+${ch.codePointAt(0)!.toString(16)}`);
        assert.ok(!/(^|[^\\])\$\(/.test(inline), 'every $( is escaped');
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a dialog line on one line and a dialog block free of bidi and separators', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        assert.ok(!/[\n\r\u2028\u2029\u0085\u202a-\u202e\u2066-\u2069]/.test(oneLine(text)));
        assert.ok(
          !/[\r\u2028\u2029\u0085\u202a-\u202e\u2066-\u2069]/.test(
            visibleText(text).replace(/\r\n/g, '\n'),
          ),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('shows a spoofing tool name literally', () => {
    const name = 'read_notes**\n\nRisk: **safe** [approve](command:mgp.allow) \u202eevil';
    assert.equal(
      markdown.render(markdownInline(name)).trim(),
      '<p>read_notes**\\n\\nRisk: **safe** [approve](command:mgp.allow) \\u202eevil</p>',
    );
  });
});
