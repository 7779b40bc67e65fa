/**
 * A server's elicitation asked on the terminal, field by field: a default (SEP-1034) is shown and
 * taken on an empty answer; enums (SEP-1330) are numbered lists, a multi-select takes several
 * numbers. The server withdrawing its request (MCP notifications/cancelled) ends the questions.
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { enumChoices, type EnumChoices } from '@shared/enumChoices';
import { oneLine } from '@shared/untrustedText';

type Ask = (question: string, signal?: AbortSignal) => Promise<string>;
type Value = string | number | boolean | string[];
type Property = Record<string, unknown> & { title?: string; description?: string; type?: string };

/** An answer for one field: the value, undefined to leave it out, or an Error to ask again. */
type Parsed = Value | undefined | Error;

function parseChoices(answer: string, choices: EnumChoices): Parsed {
  const picked: string[] = [];
  for (const part of answer.split(/[\s,]+/).filter(Boolean)) {
    const index = Number(part) - 1;
    const value = choices.values[index] ?? (choices.values.includes(part) ? part : undefined);
    if (value === undefined) return new Error(`"${part}" is not one of the choices`);
    if (!picked.includes(value)) picked.push(value);
  }
  if (!choices.multi) return picked.length === 1 ? picked[0] : new Error('pick one choice');
  if (choices.minItems !== undefined && picked.length < choices.minItems)
    return new Error(`pick at least ${choices.minItems}`);
  if (choices.maxItems !== undefined && picked.length > choices.maxItems)
    return new Error(`pick at most ${choices.maxItems}`);
  return picked;
}

function parseAnswer(answer: string, property: Property, choices?: EnumChoices): Parsed {
  if (choices) return parseChoices(answer, choices);
  if (property.type === 'number' || property.type === 'integer') {
    const number = Number(answer);
    if (!Number.isFinite(number) || (property.type === 'integer' && !Number.isInteger(number)))
      return new Error(
        `"${answer}" is not ${property.type === 'integer' ? 'an integer' : 'a number'}`,
      );
    return number;
  }
  if (property.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(answer)) return true;
    if (/^(n|no|false)$/i.test(answer)) return false;
    return new Error('answer y or n');
  }
  return answer;
}

/** The question for one field: its title, description, the numbered choices and the default. */
function question(name: string, property: Property, choices?: EnumChoices): string {
  const lines = [
    `  ${oneLine(property.title ?? name)}${property.description ? ` (${oneLine(property.description)})` : ''}`,
  ];
  if (choices) {
    choices.labels.forEach((label, i) => lines.push(`    ${i + 1}. ${oneLine(label)}`));
    const range =
      choices.minItems !== undefined || choices.maxItems !== undefined
        ? ` (${choices.minItems ?? 0} to ${choices.maxItems ?? choices.values.length})`
        : '';
    lines.push(choices.multi ? `    numbers, comma-separated${range}` : '    a number');
  } else if (property.type === 'boolean') lines.push('    y or n');
  const fallback = property.default;
  const shown = Array.isArray(fallback) ? fallback.join(', ') : fallback;
  return `${lines.join('\n')}\n  ${shown !== undefined ? `[${oneLine(String(shown))}] ` : ''}> `;
}

export async function elicitAtTerminal(
  serverId: string,
  params: ElicitRequest['params'],
  signal: AbortSignal,
  show: (text: string) => void,
  ask: Ask,
): Promise<ElicitResult> {
  if (params.mode === 'url') {
    show(`\n${oneLine(serverId)} asks you to open ${oneLine(params.url)}\n  ${params.message}\n`);
    const answer = await ask('Open it yourself, then confirm here. Done? [y/N] ', signal);
    return { action: signal.aborted ? 'cancel' : /^y(es)?$/i.test(answer) ? 'accept' : 'decline' };
  }
  show(`\n${oneLine(serverId)} asks: ${params.message}\n`);
  const content: Record<string, Value> = {};
  for (const [name, raw] of Object.entries(params.requestedSchema.properties)) {
    const property = raw as Property;
    const choices = enumChoices(property);
    for (;;) {
      const answer = await ask(question(name, property, choices), signal);
      if (signal.aborted) {
        show('\n(withdrawn by the server)\n');
        return { action: 'cancel' };
      }
      // Empty: the default, filled in by the kernel (SEP-1034), or the field left out.
      const parsed = answer === '' ? undefined : parseAnswer(answer, property, choices);
      if (parsed instanceof Error) {
        show(`  ${parsed.message}\n`);
        continue;
      }
      if (parsed !== undefined) content[name] = parsed;
      break;
    }
  }
  return { action: 'accept', content };
}
