/**
 * Arguments are checked against the tool's inputSchema before they leave the kernel (MGP §14.3 4000
 * INVALID_TOOL_ARGS). Validators are compiled once per listed tool; a schema ajv cannot compile is
 * left to the server.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ListedTool } from '../connection/toolResults';

const UNCHECKABLE = Symbol('uncheckable');

/** Servers' schemas name drafts and ids ajv need not know; the keywords are what is checked. */
function withoutIdentity(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...schema };
  delete copy.$schema;
  delete copy.$id;
  return copy;
}

export class ArgumentChecker {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  private readonly compiled = new WeakMap<ListedTool, ValidateFunction | typeof UNCHECKABLE>();

  constructor() {
    addFormats(this.ajv);
  }

  /** A person-readable problem, or undefined when the arguments fit. */
  check(tool: ListedTool, args: Record<string, unknown>): string | undefined {
    const validate = this.validatorOf(tool);
    if (validate === UNCHECKABLE || validate(args)) return undefined;
    return (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''}`,
      )
      .join('; ');
  }

  private validatorOf(tool: ListedTool): ValidateFunction | typeof UNCHECKABLE {
    let validate = this.compiled.get(tool);
    if (validate === undefined) {
      try {
        validate = tool.inputSchema
          ? this.ajv.compile(withoutIdentity(tool.inputSchema))
          : UNCHECKABLE;
      } catch {
        validate = UNCHECKABLE;
      }
      this.compiled.set(tool, validate);
    }
    return validate;
  }
}
