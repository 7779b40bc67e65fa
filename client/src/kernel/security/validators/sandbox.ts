/**
 * The `sandbox` validator (MGP §4.5): blocks dangerous shell patterns, live metacharacters and recursive
 * deletes in command-like arguments, and unmistakable payloads (shellRules.ts) everywhere.
 *
 * In a command-like string these are blocked when live (not quoted, see shellSyntax.ts):
 * - chaining `;`, `&&`, `||`, a background `&`; a pipe `|`; a line break inside the line;
 * - command substitution: backticks, `$(`, `${`, process substitution `<(` `>(`;
 * - output redirection into system paths (`> /etc/…`, `>> ~/.bashrc`, `> /dev/sda`); `> out.txt`,
 *   `2>&1` and `2>/dev/null` pass.
 * The line is parsed by a real shell grammar (tree-sitter's Bash) and expanded as the shell would
 * (shellRead.ts, shellExpand.ts): quotes, `$'…'`, brace expansion, `$IFS`, line continuations; each
 * program's arguments are read as its option parser reads them (shellOptions.ts), and the commands
 * programs run in turn — `bash -c`, `eval`, here-strings, `find -exec`, `xargs`, `env -S`, git
 * aliases, tar's command options — are read again (shellCommands.ts), so `bash -c "{rm,-rf,x}"`,
 * `rm$IFS-rf$IFS/` and `rm --rec x` are judged as the `rm -rf` they are. Output options are write
 * targets like redirections (shellTargets.ts). What the parser cannot read, and constructs
 * other than simple commands, are refused rather than let through. Arguments of `cmd /c`,
 * `powershell -Command` and `ssh host`, which Bash's grammar does not cover, are checked for live
 * metacharacters as lines of their own: `git commit -m "a; b"` passes.
 * An array of strings under a command-like key is an argv: its items are the program's words.
 */
import type { ValidationContext } from './context';
import type { Violation } from './types';
import { readCommands } from './shellCommands';
import { commandFindings, type Finding } from './shellDetectors';
import { MAX_PARSED_COMMAND } from './shellParse';
import type { ShellCommand, ShellReading } from './shellRead';
import { PAYLOAD_RULES, SHELL_RULES, type ShellRule } from './shellRules';
import { commandStart, maskQuoted, programName } from './shellSyntax';
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

/** Programs outside the sh family that run an argument as a command line (cmd, PowerShell, ssh…). */
const OTHER_RUNNERS = /^(?:cmd|pwsh|powershell|ssh|watch|start|call)$/;

/** Live metacharacters in the arguments of cmd, PowerShell, ssh…, which Bash's grammar does not read. */
function otherRunnerFindings(commands: ShellCommand[]): Finding[] {
  const found: Finding[] = [];
  for (const command of commands) {
    const { at, wrappers } = commandStart(command.words);
    const name = at >= 0 ? programName(command.words[at].text) : '';
    if (!OTHER_RUNNERS.test(name) && !wrappers.some((w) => OTHER_RUNNERS.test(w))) continue;
    for (const word of command.words.slice(1)) {
      if (!/\s/.test(word.text)) continue;
      for (const f of metaFindings(maskQuoted(word.text))) found.push({ ...f, index: word.index });
    }
  }
  return found;
}

/** Text of plain word characters and single spaces: no quoting, expansion, glob or operator. */
const PLAIN = /^[\w./:=@%+,-]+(?: [\w./:=@%+,-]+)*$/;
const RESERVED =
  /^(?:if|then|else|elif|fi|case|esac|for|select|while|until|do|done|in|function|time|coproc)$/;

/**
 * A command line that is only plain words: the shell splits it at its spaces and expands nothing, so
 * its words are read without the parser (most commands a tool runs look like this).
 */
function plainWords(text: string): ShellReading | undefined {
  if (!PLAIN.test(text) || /(?:^| )IFS=/.test(text)) return undefined;
  let index = 0;
  const words = text.split(' ').map((word) => {
    const at = index;
    index += word.length + 1;
    return { text: word, index: at, quoted: false, unknown: false };
  });
  if (RESERVED.test(words[0].text)) return undefined;
  return { commands: [{ words, redirects: [], index: 0 }], issues: [] };
}

function tooLong(text: string): Finding {
  return {
    rule: 'too_long',
    what: `a command line longer than ${MAX_PARSED_COMMAND} characters`,
    why: 'It is too long to check.',
    index: 0,
    length: text.length,
  };
}

/** The rules on each command as the shell will run it (`{rm,-rf,/}` is `rm -rf /`). */
function expandedRuleFindings(commands: ShellCommand[]): Finding[] {
  return commands.flatMap((c) =>
    ruleFindings(c.words.map((w) => w.text).join(' '), SHELL_RULES).map((f) => ({
      ...f,
      index: c.index,
    })),
  );
}

function unique(found: Finding[]): Finding[] {
  const seen = new Set<string>();
  const catastrophic = found.some((f) => f.rule === 'catastrophic_delete');
  return found.filter((f) => {
    if ((catastrophic && f.rule === 'recursive_delete') || seen.has(f.rule)) return false;
    seen.add(f.rule);
    return true;
  });
}

/**
 * Everything the sandbox finds in one string; `command` says whether it is command-like. A command
 * line is parsed and expanded as the shell would (shellRead.ts) and its commands judged; the pattern
 * rules run on the text as written and on every command as expanded.
 */
export async function sandboxFindings(text: string, command: boolean): Promise<Finding[]> {
  if (!command) return ruleFindings(text, PAYLOAD_RULES);
  const found = ruleFindings(text, SHELL_RULES);
  if (text.length > MAX_PARSED_COMMAND) return unique([...found, tooLong(text)]);
  const reading = await readCommands(text, 0, 0, plainWords(text));
  found.push(
    ...reading.issues,
    ...commandFindings(reading.commands),
    ...otherRunnerFindings(reading.commands),
    ...expandedRuleFindings(reading.commands),
  );
  return unique(found);
}

/**
 * An argv (an array of strings under a command-like key): its items are the words, unexpanded, as a
 * program started without a shell gets them; what it runs in turn (`["bash", "-c", "…"]`) is read as
 * for a command line. The pattern rules also see the items joined.
 */
async function argvFindings(values: string[]): Promise<Finding[]> {
  const words = values.map((text) => ({ text, index: 0, quoted: true, unknown: false }));
  const own: ShellCommand[] = [{ words, redirects: [], index: 0 }];
  const reading = await readCommands('', 0, 0, { commands: own, issues: [] });
  const found = ruleFindings(values.join(' '), SHELL_RULES);
  found.push(
    ...reading.issues,
    ...commandFindings(reading.commands),
    ...expandedRuleFindings(reading.commands),
  );
  return unique(found);
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

export async function checkSandbox(context: ValidationContext): Promise<Violation[]> {
  const violations: Violation[] = [];
  const argvs = new Set(
    context.walked.stringArrays
      .filter((a) => context.isCommandLike(a.key, a.top))
      .map((a) => a.pointer),
  );
  for (const leaf of context.walked.leaves) {
    if (typeof leaf.value !== 'string') continue;
    // An item of an argv is a word, judged with its array below, not a command line of its own.
    if (argvs.has(leaf.pointer.slice(0, leaf.pointer.lastIndexOf('/')))) continue;
    const command = context.isCommandLike(leaf.key, leaf.top);
    for (const f of await sandboxFindings(leaf.value, command))
      violations.push(toViolation(f, leaf.value, leaf.pointer));
  }
  for (const array of context.walked.stringArrays) {
    if (!argvs.has(array.pointer)) continue;
    const joined = array.values.join(' ');
    for (const f of await argvFindings(array.values))
      violations.push(toViolation(f, joined, array.pointer));
  }
  return violations;
}
