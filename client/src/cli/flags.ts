/**
 * A command's flags, declared once and parsed once (node:util parseArgs) into typed values. A flag the
 * command does not take, a flag without its value, or a value that is not one of the allowed ones is a
 * UsageError whose message names the command's flags: the command exits 2 with it.
 */
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

/** One flag: with a value (`value` names it in messages, e.g. `FILE`), or a switch. */
export type Flag =
  | { type: 'string'; value: string; short?: string; multiple?: boolean }
  | { type: 'boolean'; short?: string };

export type Flags = Record<string, Flag>;

export type FlagValues<F extends Flags> = {
  [K in keyof F]?: F[K] extends { multiple: true }
    ? string[]
    : F[K] extends { type: 'string' }
      ? string
      : boolean;
};

export interface CommandLine<F extends Flags> {
  values: FlagValues<F>;
  positionals: string[];
  /** `--help` or `-h` was given: the command prints its usage instead of running. */
  help: boolean;
}

/** `--args JSON, --stream, --json`: the flags as a person types them. */
export function describeFlags(flags: Flags): string {
  const names = Object.entries(flags).map(([name, flag]) => {
    const long =
      flag.type === 'string'
        ? `--${name} ${flag.value}${flag.multiple ? ' (repeatable)' : ''}`
        : `--${name}`;
    return flag.short ? `-${flag.short}/${long}` : long;
  });
  return names.length ? names.join(', ') : 'no flags';
}

function takes(command: string, flags: Flags): string {
  return `${command} takes ${describeFlags(flags)}`;
}

/** The arguments of one command; `command` is how messages name it (`mgp call`). */
export function parseCommandLine<F extends Flags>(
  command: string,
  args: string[],
  flags: F,
): CommandLine<F> {
  const options = { ...flags, help: { type: 'boolean' as const, short: 'h' } };
  const loose = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of loose.tokens ?? []) {
    if (token.kind === 'option' && !(token.name in options))
      throw new UsageError(`unknown option ${token.rawName}; ${takes(command, flags)}`);
  }
  if (loose.values.help === true) return { values: {}, positionals: [], help: true };
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      strict: true,
      allowPositionals: true,
    });
    const given: Record<string, unknown> = { ...values };
    delete given.help;
    return { values: given as FlagValues<F>, positionals, help: false };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}; ${takes(command, flags)}`);
  }
}

/** A flag's value that must be one of `choices`; undefined when the flag was not given. */
export function oneOf<T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (raw === undefined) return undefined;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError(`--${name} takes ${choices.join(' or ')}, not "${raw}"`);
}

/** A flag's whole-number value, at least `least`; `fallback` when the flag was not given. */
export function wholeNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  least = 0,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < least)
    throw new UsageError(`--${name} takes a whole number of at least ${least}, not "${raw}"`);
  return value;
}
