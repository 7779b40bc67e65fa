/**
 * The one check of a tool's arguments against its inputSchema, used by the pipeline before a call leaves
 * the kernel (MGP §14.3 4000 INVALID_TOOL_ARGS) and by the Run Tool form as the person types (the
 * elicitation form checks its answers with it too). Each schema is compiled once, whoever asks first;
 * a schema ajv cannot compile is left to the server.
 * ajv compiles schemas to code with `new Function`, which the webviews' CSP forbids: the form's checks
 * run here, in the extension host.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ArgumentError, fieldErrors } from './argumentMessages';

export type { ArgumentError };

export interface ArgumentCheck {
  errors: ArgumentError[];
  /** The schema could not be compiled: the arguments go unchecked (the server still checks them). */
  schemaProblem?: string;
}

/** How many field errors a refused call names. */
const PROBLEMS_NAMED = 5;

/** Servers' schemas name drafts and ids ajv need not know; the keywords are what is checked. */
function withoutIdentity(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...schema };
  delete copy.$schema;
  delete copy.$id;
  return copy;
}

export class ArgumentChecker {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  private readonly compiled = new WeakMap<object, ValidateFunction | { problem: string }>();

  constructor() {
    addFormats(this.ajv);
  }

  /** Every field's problem, for a form; no errors when the arguments fit or the schema cannot be used. */
  check(schema: Record<string, unknown> | undefined, args: unknown): ArgumentCheck {
    if (!schema) return { errors: [] };
    const validate = this.validatorOf(schema);
    if ('problem' in validate) return { errors: [], schemaProblem: validate.problem };
    if (validate(args)) return { errors: [] };
    return { errors: fieldErrors(validate.errors ?? []) };
  }

  /**
   * The problems in one line (a call's refusal), or undefined when the value fits; `whole` names the
   * value itself where a problem is about all of it. A tool's result is checked against its
   * outputSchema the same way (outputCheck.ts).
   */
  problem(
    schema: Record<string, unknown> | undefined,
    args: unknown,
    whole = '(arguments)',
  ): string | undefined {
    if (!schema) return undefined;
    const validate = this.validatorOf(schema);
    if ('problem' in validate || validate(args)) return undefined;
    return fieldErrors(validate.errors ?? [], PROBLEMS_NAMED)
      .map((e) => `${e.pointer || whole}: ${e.message}`)
      .join('; ');
  }

  private validatorOf(schema: Record<string, unknown>): ValidateFunction | { problem: string } {
    let validate = this.compiled.get(schema);
    if (!validate) {
      try {
        validate = this.ajv.compile(withoutIdentity(schema));
      } catch (error) {
        validate = { problem: error instanceof Error ? error.message : String(error) };
      }
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
