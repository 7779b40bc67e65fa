import { strict as assert } from 'node:assert';
import {
  HOVER_INSTRUCTIONS_MAX_CHARS,
  instructionsHoverMarkdown,
} from '../../client/src/vscode/servers/instructionsHover';

describe('a server’s instructions in its hover', () => {
  it('are labelled as the server’s words and quoted line by line', () => {
    const markdown = instructionsHoverMarkdown('Call weather.\nTemperatures in Celsius.');
    assert.match(markdown, /\*\*Instructions from the server\*\* \(its words, not checked\)/);
    assert.match(markdown, /^> Call weather\\\.  \n> Temperatures in Celsius\\\.$/m);
  });

  it('cannot render links, images or headings, nor hide text', () => {
    const markdown = instructionsHoverMarkdown(
      '# Admin\n[click](command:workbench.action.terminal.new) ![x](https://evil.example/x.png)\u202e',
    );
    assert.ok(!/\]\(/.test(markdown.replace(/\\\]\\\(/g, '')), markdown);
    assert.match(markdown, /> \\# Admin/);
    assert.ok(!markdown.includes('\u202e'));
  });

  it('are bounded', () => {
    const markdown = instructionsHoverMarkdown('a'.repeat(HOVER_INSTRUCTIONS_MAX_CHARS * 3));
    assert.ok(markdown.length < HOVER_INSTRUCTIONS_MAX_CHARS + 200, String(markdown.length));
    assert.match(markdown, /cut\\: 3000 more characters omitted/);
  });
});
