/**
 * The `sandbox` validator (MGP §4.5): blocks dangerous shell patterns, live metacharacters and recursive
 * deletes in command-like arguments, and unmistakable payloads (shellRules.ts) everywhere.
 *
 * In a command-like string these are blocked when live (not quoted, see shellSyntax.ts):
 * - chaining `;`, `&&`, `||`, a background `&`; a pipe `|`; a line break inside the line;
 * - command substitution: backticks, `$(`, `${`, process substitution `<(` `>(`;
 * - output redirection into system paths (`> /etc/…`, `>> ~/.bashrc`, `> /dev/sda`); `> out.txt`,
 *   `2>&1` and `2>/dev/null` pass.
 * A quoted argument of a program that runs it as a command line (`bash -c`, `sh -c`, `cmd /c`,
 * `powershell -Command`, `ssh host`, `su -c`, `eval`) is checked for live metacharacters as a line of
 * its own: `bash -c "ls; id"` is chaining, while `git commit -m "a; b"` is not.
 * An array of strings under a command-like key (an argv) is also checked joined with spaces, so
 * `["rm", "-rf", "build"]` is seen as the command it is.
 */
import type { ValidationContext } from './context';
import type { Violation } from './model';
import { invocationFindings, type Finding } from './shellDetectors';
import { PAYLOAD_RULES, SHELL_RULES, type ShellRule } from './shellRules';
import { maskQuoted, splitWords } from './shellSyntax';
import { excerpt, place } from './text';

interface MetaRule {
  id: string;
  what: string;
  why: string;
  pattern: RegExp;
}

const META_RULES: readonly MetaRule[] = [
  {
    id: 'command_substitution',
    what: 'command substitution (backticks, $(…), ${…})',
    why: 'It runs another command inside this one.',
    pattern: /`|\$\(|\$\{|[<>]\(/,
  },
  {
    id: 'command_chaining',
    what: 'command chaining (;, &&, ||, &)',
    why: 'It appends commands to the one the tool expects.',
    pattern: /;|&&|\|\||(?<![<>&|])&(?![>&])/,
  },
  {
    id: 'pipe',
    what: 'a pipe (|)',
    why: 'It feeds the output into another program.',
    pattern: /(?<!\|)\|(?!\|)/,
  },
];

function ruleFindings(text: string, rules: readonly ShellRule[]): Finding[] {
  const found: Finding[] = [];
  for (const rule of rules) {
    for (const pattern of rule.patterns) {
      const match = pattern.exec(text);
      if (match) {
        found.push({
          rule: rule.id,
          what: rule.what,
          why: rule.why,
          index: match.index,
          length: match[0].length,
        });
        break;
      }
    }
  }
  return found;
}

function metaFindings(masked: string): Finding[] {
  const found: Finding[] = [];
  for (const rule of META_RULES) {
    const match = rule.pattern.exec(masked);
    if (match)
      found.push({
        rule: rule.id,
        what: rule.what,
        why: rule.why,
        index: match.index,
        length: match[0].length,
      });
  }
  const lineBreak = /[\n\r]/.exec(masked.trimEnd());
  if (lineBreak)
    found.push({
      rule: 'newline',
      what: 'a line break',
      why: 'Each line runs as a command of its own.',
      index: lineBreak.index,
      length: 1,
    });
  return found;
}

/** Programs that run a quoted argument as a command line of their own (`bash -c "…"`, `ssh host "…"`). */
const SHELL_RUNNER =
  /(?<![\w.-])(?:[\w.~-]{0,64}[\\/]){0,16}(?:(?:ba|da|z|k|fi|a|c|tc)?sh|cmd|pwsh|powershell|ssh|su|eval|watch)(?:\.exe)?(?=\s)/i;

/** Live metacharacters in the line, and in quoted arguments that a shell runner will run as lines. */
function allMetaFindings(text: string, masked: string): Finding[] {
  const found = metaFindings(masked);
  if (!SHELL_RUNNER.test(text)) return found;
  for (const word of splitWords(text)) {
    if (!word.quoted || !/\s/.test(word.text)) continue;
    for (const f of metaFindings(maskQuoted(word.text)))
      found.push({ ...f, index: word.index + 1 + f.index });
  }
  return found;
}

/** Everything the sandbox finds in one string; `command` says whether it is command-like. */
export function sandboxFindings(text: string, command: boolean, withMeta = true): Finding[] {
  if (!command) return ruleFindings(text, PAYLOAD_RULES);
  const masked = maskQuoted(text);
  const found = [
    ...ruleFindings(text, SHELL_RULES),
    ...invocationFindings(text, masked),
    ...(withMeta ? allMetaFindings(text, masked) : []),
  ];
  const seen = new Set<string>();
  const catastrophic = found.some((f) => f.rule === 'catastrophic_delete');
  return found.filter((f) => {
    if ((catastrophic && f.rule === 'recursive_delete') || seen.has(f.rule)) return false;
    seen.add(f.rule);
    return true;
  });
}

function toViolation(f: Finding, text: string, pointer: string): Violation {
  const quote = excerpt(text, f.index, f.length);
  return {
    validator: 'sandbox',
    rule: f.rule,
    message: `Blocked ${f.what} in ${place(pointer)}: "${quote}". ${f.why}`,
    argument: pointer,
    excerpt: quote,
  };
}

export function checkSandbox(context: ValidationContext): Violation[] {
  const violations: Violation[] = [];
  for (const leaf of context.walked.leaves) {
    if (typeof leaf.value !== 'string') continue;
    const command = context.isCommandLike(leaf.key, leaf.top);
    for (const f of sandboxFindings(leaf.value, command))
      violations.push(toViolation(f, leaf.value, leaf.pointer));
  }
  for (const array of context.walked.stringArrays) {
    if (!context.isCommandLike(array.key, array.top)) continue;
    const joined = array.values.join(' ');
    const already = new Set(
      violations.filter((v) => v.argument.startsWith(`${array.pointer}/`)).map((v) => v.rule),
    );
    for (const f of sandboxFindings(joined, true, false)) {
      if (!already.has(f.rule)) violations.push(toViolation(f, joined, array.pointer));
    }
  }
  return violations;
}
