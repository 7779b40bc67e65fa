import { markdownInline } from '@shared/untrustedText';
import { boundedInstructions } from '../../kernel';

/** The most characters of a server's instructions its hover shows. */
export const HOVER_INSTRUCTIONS_MAX_CHARS = 1_500;

/**
 * A server's instructions for its hover in the Servers view: labelled as the server's words and
 * quoted, each line with its Markdown escaped (a server cannot make links, images or headings
 * there), control characters made visible, and bounded.
 */
export function instructionsHoverMarkdown(instructions: string): string {
  const quoted = boundedInstructions(instructions.trim(), HOVER_INSTRUCTIONS_MAX_CHARS)
    .split('\n')
    .map((line) => `> ${markdownInline(line)}`)
    .join('  \n');
  return `\n**Instructions from the server** (its words, not checked):\n${quoted}\n`;
}
