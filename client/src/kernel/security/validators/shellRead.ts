/**
 * Reads a command line as the shell will run it: parsed (shellParse.ts) and each word expanded
 * (shellExpand.ts); redirections with their targets, and what a here-string or here-document feeds a
 * command. The commands that programs run in turn are found by shellCommands.ts.
 *
 * What the sandbox does not let through is reported as an issue, not dropped: chaining (`;`, `&&`,
 * `||`, a background `&`), a pipe, a line break between commands, command or process substitution,
 * an `IFS` assignment, syntax the parser could not read, and any construct this reader does not know
 * (functions, loops, conditionals…), whose commands are still read and judged.
 */
import type { ShellNode } from './shellGrammar';
import { expandWord, ExpansionError, type Expanded } from './shellExpand';
import { parseShell } from './shellParse';

export interface Issue {
  rule: string;
  what: string;
  why: string;
  index: number;
  length: number;
}

export interface Redirection {
  op: string;
  /** The target as the shell expands it, and as written (quotes removed): both are judged. */
  targets: string[];
  index: number;
}

export interface ShellCommand {
  words: Expanded[];
  redirects: Redirection[];
  index: number;
  /** What a here-string or here-document feeds the command (`bash <<< 'rm -rf ~'`). */
  stdin?: Expanded;
}

export interface ShellReading {
  commands: ShellCommand[];
  issues: Issue[];
}

const ISSUES = {
  chaining: [
    'command_chaining',
    'command chaining (;, &&, ||, &)',
    'It appends commands to the one the tool expects.',
  ],
  pipe: ['pipe', 'a pipe (|)', 'It feeds the output into another program.'],
  newline: ['newline', 'a line break', 'Each line runs as a command of its own.'],
  substitution: [
    'command_substitution',
    'command substitution (backticks, $(…), <(…))',
    'It runs another command inside this one.',
  ],
  ifs: [
    'obfuscation',
    'the field separator IFS (assigned or expanded)',
    'Splitting words where no space is written hides what a command line runs.',
  ],
  slow: [
    'unparsable',
    'a command line the parser could not read in time',
    'A command line the kernel cannot read is not run at the sandbox level.',
  ],
  syntax: [
    'unparsable',
    'shell syntax the parser cannot read',
    'A command line the kernel cannot read is not run at the sandbox level.',
  ],
  unknown: [
    'unknown_construct',
    'a shell construct the sandbox does not allow',
    'Only simple commands are allowed at the sandbox level.',
  ],
  nesting: [
    'too_deep',
    'command lines nested too deep',
    'Nested shells deeper than this cannot be checked.',
  ],
  expansion: [
    'expansion_bomb',
    'a brace expansion too large to check',
    'It expands to more words than a command needs.',
  ],
} as const;

export type IssueKind = keyof typeof ISSUES;

function issue(kind: IssueKind, at: { index: number; length: number }, what?: string): Issue {
  const [rule, label, why] = ISSUES[kind];
  return { rule, what: what ?? label, why, index: at.index, length: Math.max(1, at.length) };
}

const span = (node: ShellNode, offset: number) => ({
  index: offset + node.startIndex,
  length: node.endIndex - node.startIndex,
});

/** Statements that hold statements: their separators are judged, then each statement. */
const BLOCKS = new Set(['program', 'compound_statement', 'subshell', 'do_group']);
const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);

class Reader {
  readonly commands: ShellCommand[] = [];
  readonly issues: Issue[] = [];
  constructor(
    private readonly source: string,
    private readonly offset: number,
  ) {}

  private add(kind: IssueKind, node: ShellNode, what?: string): void {
    this.issues.push(issue(kind, span(node, this.offset), what));
  }

  private expand(node: ShellNode): Expanded[] {
    for (const use of node.descendantsOfType(['simple_expansion', 'expansion']))
      if (use && /^\$\{?#?!?IFS\b/.test(use.text)) this.add('ifs', use);
    if (
      (node.type === 'simple_expansion' || node.type === 'expansion') &&
      /^\$\{?#?!?IFS\b/.test(node.text)
    )
      this.add('ifs', node);
    try {
      return expandWord(node, (n) => this.add('substitution', n)).map((w) => ({
        ...w,
        index: w.index + this.offset,
      }));
    } catch (error) {
      if (!(error instanceof ExpansionError)) throw error;
      this.add('expansion', node);
      return [];
    }
  }

  block(node: ShellNode): void {
    const statements = node.namedChildren.filter(
      (c): c is ShellNode => !!c && c.type !== 'comment',
    );
    for (const child of node.children) {
      if (
        child &&
        !child.isNamed &&
        (child.type === '&' || child.type === ';' || child.type === ';;')
      )
        this.add('chaining', child);
    }
    for (let k = 1; k < statements.length; k++) {
      const between = this.source.slice(statements[k - 1].endIndex, statements[k].startIndex);
      if (/[\n\r]/.test(between) && !/[;&]/.test(between)) this.add('newline', statements[k]);
    }
    for (const statement of statements) this.statement(statement);
  }

  statement(node: ShellNode): void {
    if (BLOCKS.has(node.type)) return this.block(node);
    switch (node.type) {
      case 'command':
        return this.command(node, []);
      case 'redirected_statement':
        return this.redirected(node);
      case 'pipeline':
        this.add('pipe', node);
        break;
      case 'list':
        this.add('chaining', node);
        break;
      case 'negated_command':
        break;
      case 'variable_assignment':
      case 'variable_assignments':
        return this.assignments(node);
      default:
        this.add(
          'unknown',
          node,
          `a shell construct the sandbox does not allow (${node.type.replace(/_/g, ' ')})`,
        );
    }
    this.inside(node);
  }

  /** The statements inside a construct that is refused or passes through (loops, pipelines…). */
  private inside(node: ShellNode): void {
    for (const child of node.namedChildren)
      if (
        child &&
        (child.type === 'command' ||
          child.type === 'redirected_statement' ||
          BLOCKS.has(child.type) ||
          child.type.endsWith('_statement') ||
          child.type === 'pipeline' ||
          child.type === 'list' ||
          child.type === 'negated_command')
      )
        this.statement(child);
      else if (child) this.substitutionsIn(child);
  }

  private substitutionsIn(node: ShellNode): void {
    for (const found of node.descendantsOfType(['command_substitution', 'process_substitution']))
      if (found) this.add('substitution', found);
  }

  private assignments(node: ShellNode): void {
    for (const a of node.type === 'variable_assignment' ? [node] : node.namedChildren) {
      if (!a) continue;
      if (a.childForFieldName('name')?.text === 'IFS') this.add('ifs', a);
      this.substitutionsIn(a);
    }
  }

  /** An output redirection's targets, as expanded and as written; undefined for other redirections. */
  private redirection(r: ShellNode): Redirection | undefined {
    const op = r.children.find((c) => c && !c.isNamed)?.type ?? '';
    const destination = r.childForFieldName('destination');
    if (!destination) return undefined;
    if (!OUTPUT_OPS.has(op) || (op === '>&' && /^\d+$|^-$/.test(destination.text))) {
      this.substitutionsIn(destination);
      return undefined;
    }
    const expanded = this.expand(destination);
    return {
      op,
      targets: [
        ...expanded.flatMap((w) => w.worst ?? [w.text]),
        destination.text.replace(/^["']|["']$/g, ''),
      ],
      index: this.offset + r.startIndex,
    };
  }

  /**
   * The redirections among `nodes`: output targets into `redirects`, the text of a here-string or
   * here-document into the result (a shell reads it as its command lines).
   */
  private redirections(nodes: ShellNode[], redirects: Redirection[]): Expanded | undefined {
    let stdin: Expanded | undefined;
    for (const r of nodes) {
      if (r.type === 'file_redirect') {
        const found = this.redirection(r);
        if (found) redirects.push(found);
      } else if (r.type === 'herestring_redirect') {
        const word = r.namedChildren.find((c) => c !== null);
        const expanded = word ? this.expand(word) : [];
        if (expanded.length)
          stdin = { ...expanded[0], text: expanded.map((w) => w.text).join(' ') };
      } else if (r.type === 'heredoc_redirect') {
        this.substitutionsIn(r);
        const inner = r.namedChildren.filter((c): c is ShellNode => c?.type === 'file_redirect');
        this.redirections(inner, redirects);
        stdin = this.hereDocument(r) ?? stdin;
      } else this.substitutionsIn(r);
    }
    return stdin;
  }

  /**
   * A here-document's text, taken from the source between the line of `<<` and the closing
   * delimiter: the grammar does not always read its body as one (a body starting with `\`).
   */
  private hereDocument(r: ShellNode): Expanded | undefined {
    const start = r.children.find((c) => c?.type === 'heredoc_start');
    const end = r.children.find((c) => c?.type === 'heredoc_end');
    if (!start || !end) return undefined;
    const from = this.source.indexOf('\n', start.endIndex) + 1;
    if (from <= 0 || from > end.startIndex) return undefined;
    const text = this.source.slice(from, end.startIndex);
    // An unquoted delimiter lets the shell expand the body first.
    const unknown = !/['"\\]/.test(start.text) && /[$`]/.test(text);
    return { text, index: this.offset + from, quoted: true, unknown };
  }

  private redirected(node: ShellNode): void {
    const redirects: Redirection[] = [];
    const body = node.childForFieldName('body');
    const others = node.namedChildren.filter((r): r is ShellNode => !!r && r !== body);
    const stdin = this.redirections(others, redirects);
    if (body?.type === 'command') this.command(body, redirects, stdin);
    else if (body) {
      this.commands.push({ words: [], redirects, index: this.offset + node.startIndex });
      this.statement(body);
    }
  }

  private command(node: ShellNode, redirects: Redirection[], stdin?: Expanded): void {
    const words: Expanded[] = [];
    const own: ShellNode[] = [];
    let previous: ShellNode | undefined;
    for (const child of node.namedChildren) {
      if (!child) continue;
      // The shell splits words only at blanks: two words with nothing between them are a misreading.
      if (previous && !/\s/.test(this.source.slice(previous.endIndex, child.startIndex)))
        this.add('syntax', child, 'a word the parser split where the shell would not');
      previous = child;
      if (child.type === 'variable_assignment') this.assignments(child);
      else if (child.type.endsWith('_redirect')) own.push(child);
      else words.push(...this.expand(child));
    }
    const fed = this.redirections(own, redirects) ?? stdin;
    this.commands.push({ words, redirects, index: this.offset + node.startIndex, stdin: fed });
  }
}

/** The commands of one command line, as parsed; the lines they run in turn are read by shellCommands.ts. */
export async function readShell(text: string, offset = 0): Promise<ShellReading> {
  const { tree, text: joined } = await parseShell(text);
  const reader = new Reader(joined, offset);
  if (!tree) {
    reader.issues.push(issue('slow', { index: offset, length: text.length }));
    return { commands: reader.commands, issues: reader.issues };
  }
  try {
    if (tree.rootNode.hasError) {
      const bad = tree.rootNode.descendantsOfType('ERROR')[0] ?? tree.rootNode;
      reader.issues.push(issue('syntax', span(bad, offset)));
    }
    reader.block(tree.rootNode);
  } finally {
    tree.delete();
  }
  return { commands: reader.commands, issues: reader.issues };
}

/** An issue of the kinds this reader reports, for the readers of nested lines (shellCommands.ts). */
export function shellIssue(kind: IssueKind, at: { index: number; length: number }): Issue {
  return issue(kind, at);
}
