/**
 * Kernel-side validators (MGP §4.5, §7, §17.2): run on a tool call's arguments before the call is
 * forwarded, so a lying or compromised server cannot skip them. Pure: no `vscode`, no I/O except the
 * DNS lookups of network_restricted (injectable through `resolveHost`).
 *
 * A blocked call maps to MGP §14.3 1010 VALIDATION_BLOCKED, or 1011 CODE_SAFETY_VIOLATION with the
 * §7.4 `codeRejection` as data.
 */
import type { ValidatorName } from '../../domain/security';
import { checkCodeSafety } from './codeSafety';
import { createContext } from './context';
import type {
  CodeRejection,
  ValidationInput,
  ValidationOutcome,
  ValidatorOptions,
  Violation,
} from './types';
import { checkNetwork } from './network';
import { checkReadonly } from './readonly';
import { checkSandbox } from './sandbox';
import { MAX_DEPTH } from './walk';

export type {
  CodeRejection,
  ValidationInput,
  ValidationOutcome,
  ValidatorOptions,
  Violation,
} from './types';
export { fallbackValidators } from './fallback';

const KNOWN: readonly ValidatorName[] = [
  'sandbox',
  'readonly',
  'network_restricted',
  'code_safety',
];

function refused(
  validator: ValidatorName,
  rule: string,
  message: string,
  argument = '',
): Violation {
  return { validator, rule, message, argument };
}

/**
 * Runs the named validators on one call. `none` is skipped; an unknown name blocks the call (it cannot
 * be honoured, and passing the call unchecked would turn a typo into no protection).
 */
export async function runValidators(
  names: readonly ValidatorName[],
  input: ValidationInput,
  options: ValidatorOptions = {},
): Promise<ValidationOutcome> {
  const unique = [...new Set(names)].filter((name) => name !== 'none');
  const applied = unique.filter((name) => KNOWN.includes(name));
  if (unique.length === 0) return { ok: true, violations: [], applied };
  const context = createContext(input);
  const violations: Violation[] = [];
  let codeRejection: CodeRejection | undefined;
  for (const name of unique) {
    if (name === 'sandbox') violations.push(...(await checkSandbox(context)));
    else if (name === 'readonly') violations.push(...checkReadonly(context));
    else if (name === 'network_restricted')
      violations.push(...(await checkNetwork(context, options)));
    else if (name === 'code_safety') {
      const outcome = checkCodeSafety(context);
      violations.push(...outcome.violations);
      codeRejection = outcome.rejection;
    } else
      violations.push(
        refused(
          name,
          'unknown_validator',
          `Blocked the call: the validator "${name}" is unknown, so the arguments cannot be checked.`,
        ),
      );
  }
  if (context.walked.tooDeepAt !== undefined) {
    const message = `Blocked the call: the arguments nest deeper than ${MAX_DEPTH} levels at ${context.walked.tooDeepAt}, too deep to check.`;
    violations.push(
      refused(applied[0] ?? unique[0], 'too_deep', message, context.walked.tooDeepAt),
    );
  }
  return { ok: violations.length === 0, violations, applied, codeRejection };
}
