/** The two pure tools: nothing to approve, nothing to undo. */
import { z } from 'zod';
import { defineTool, security, textResult } from '../tooling';

export const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns the text it is given, unchanged.',
  input: z.object({ text: z.string().describe('Text to send back') }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  security: security('safe', { reversible: true, confirmation_required: false }),
  plainMcp: true,
  run: async ({ text }) => textResult(text),
});

export const add = defineTool({
  name: 'add',
  title: 'Add numbers',
  description: 'Adds two numbers and returns the sum.',
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  security: security('safe', { reversible: true, confirmation_required: false }),
  plainMcp: true,
  run: async ({ a, b }) => textResult(String(a + b), { sum: a + b }),
});
