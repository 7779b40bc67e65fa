/**
 * What the validators share for one call: the walked arguments, and which of them are commands, code
 * or host names. Built once per call so no validator walks the arguments again.
 *
 * Command-like strings (the sandbox validator's full rule set, the readonly validator's shell checks):
 * - every string, when the effective `side_effects` include `process` or the tool's name says it runs
 *   shell commands (`execute_command`, `run_shell`, `bash`…, see fallback.ts);
 * - otherwise a string under a property whose name has one of the words `command`, `cmd`, `cmdline`,
 *   `script`, `shell`, `bash`, `sh`, `powershell`, `args`, `argv`, or that is exactly `run`, `exec` or
 *   `execute` (the nearest property counts: `/steps/0/run`, `/args/3`); or under a top-level property
 *   whose schema description calls it a shell command, a command line or terminal input; or a
 *   top-level property typed into a running process or run as a command (fallback.ts
 *   `typedIntoProcess`: `interact_with_process`'s `input`, `run_task`'s `task`).
 * Everything else is prose (`body`, `text`, `title`…).
 */
import type { ValidationInput } from './types';
import { nameSuggestsShell, typedIntoProcess } from './fallback';
import { boundedSet, nameWords } from './text';
import { walkArguments, type Walked } from './walk';

export interface ValidationContext {
  input: ValidationInput;
  walked: Walked;
  /** Whether the value at `key` (nearest property) under `top` (top-level property) is a command. */
  isCommandLike(key: string, top: string): boolean;
}

const COMMAND_KEY_WORDS = new Set([
  'command',
  'commands',
  'cmd',
  'cmdline',
  'commandline',
  'script',
  'scripts',
  'shell',
  'bash',
  'sh',
  'zsh',
  'powershell',
  'pwsh',
  'args',
  'argv',
]);
/** Too common inside other names (`run_id`, `exec_time`) to count as a word: only as the whole key. */
const COMMAND_KEYS_EXACT = new Set(['run', 'exec', 'execute']);
const COMMAND_DESCRIPTION =
  /\b(?:shell|bash|powershell|terminal|command[- ]line|commands? to (?:run|execute))\b/i;

const keyCache = new Map<string, boolean>();
const shellNameCache = new Map<string, boolean>();
const schemaCache = new WeakMap<object, Map<string, boolean>>();
const typedCache = new WeakMap<object, Map<string, Set<string>>>();

/** The top-level properties typed into a process (fallback.ts), cached per schema and tool. */
function typedProperties(input: ValidationInput): Set<string> {
  const schema = input.inputSchema;
  if (!schema) return new Set();
  let perSchema = typedCache.get(schema);
  if (!perSchema) typedCache.set(schema, (perSchema = new Map()));
  const key = `${input.toolName}\u0000${input.description ?? ''}`;
  const known = perSchema.get(key);
  if (known) return known;
  const typed = new Set(typedIntoProcess(input.toolName, input.description, schema).properties);
  return boundedSet(perSchema, key, typed);
}

function keyIsCommand(key: string): boolean {
  const known = keyCache.get(key);
  if (known !== undefined) return known;
  const command =
    COMMAND_KEYS_EXACT.has(key.toLowerCase()) ||
    nameWords(key).some((w) => COMMAND_KEY_WORDS.has(w));
  return boundedSet(keyCache, key, command);
}

function toolRunsShell(toolName: string): boolean {
  const known = shellNameCache.get(toolName);
  if (known !== undefined) return known;
  return boundedSet(shellNameCache, toolName, nameSuggestsShell(toolName));
}

/** The `description` of a top-level property in the tool's input schema, if it is a string. */
export function propertyDescription(
  schema: Record<string, unknown> | undefined,
  property: string,
): string | undefined {
  const properties = schema?.properties as Record<string, unknown> | undefined;
  const entry = properties && typeof properties === 'object' ? properties[property] : undefined;
  const description =
    entry && typeof entry === 'object'
      ? (entry as { description?: unknown }).description
      : undefined;
  return typeof description === 'string' ? description : undefined;
}

function schemaSaysCommand(schema: Record<string, unknown> | undefined, top: string): boolean {
  if (!schema || top === '') return false;
  let perSchema = schemaCache.get(schema);
  if (!perSchema) schemaCache.set(schema, (perSchema = new Map()));
  const known = perSchema.get(top);
  if (known !== undefined) return known;
  const said = COMMAND_DESCRIPTION.test(propertyDescription(schema, top) ?? '');
  return boundedSet(perSchema, top, said);
}

export function createContext(input: ValidationInput): ValidationContext {
  const walked = walkArguments(input.args ?? {});
  const wholeTool =
    (input.security?.side_effects ?? []).includes('process') || toolRunsShell(input.toolName);
  const typed = typedProperties(input);
  return {
    input,
    walked,
    isCommandLike: (key, top) =>
      wholeTool || keyIsCommand(key) || typed.has(top) || schemaSaysCommand(input.inputSchema, top),
  };
}
