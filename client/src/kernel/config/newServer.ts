import type { NewServer } from './serverBlock';

/** The three ways to add a server, as VS Code's *MCP: Add Server* offers them. */
export type NewServerKind = 'command' | 'npm' | 'http';

/**
 * A command line split into words as a POSIX shell would for plain words and quotes: `'…'` is
 * literal, `"…"` and bare words take `\` escapes. No expansion: args are passed as is (MGP §15.2).
 * Undefined when a quote is left open.
 */
export function splitCommandLine(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (
      c === '\\' &&
      i + 1 < line.length &&
      (quote !== '"' || '"\\$`'.includes(line[i + 1]))
    ) {
      word = (word ?? '') + line[++i];
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** npm's rules for a package name, with an optional `@version` or tag. */
const NPM_PACKAGE = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*(@[^\s@/]+)?$/;

/** Why the value typed for this kind will not do, or undefined when it will. */
export function invalidValue(kind: NewServerKind, value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Type a value, or press Escape to cancel';
  if (kind === 'npm')
    return NPM_PACKAGE.test(text)
      ? undefined
      : 'Not an npm package name (such as @modelcontextprotocol/server-everything)';
  if (kind === 'command') return splitCommandLine(text) ? undefined : 'A quote is not closed';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Not a URL: type an absolute address such as https://example.com/mcp';
  }
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? undefined
    : `${url.protocol} is not http: or https:`;
}

/** The server the value describes, before it has an id (`id` is the suggested name). */
export function newServerFrom(kind: NewServerKind, value: string): NewServer {
  const text = value.trim();
  if (kind === 'npm') {
    const name = text.replace(/(.)@[^/]*$/, '$1').replace(/^@[^/]*\//, '');
    const id = name.replace(/^(mcp-server-|server-|mcp-)/, '').replace(/-mcp(-server)?$/, '');
    return { id: id || name, transport: 'stdio', command: 'npx', args: ['-y', text] };
  }
  if (kind === 'command') {
    const [command, ...args] = splitCommandLine(text) ?? [text];
    const program = command.split(/[\\/]/).pop() ?? command;
    const script = args.find((arg) => !arg.startsWith('-'));
    const base =
      /^(node|python3?|uvx?|npx|deno|bun|java|docker)$/.test(program) && script
        ? (script.split(/[\\/]/).pop() ?? script)
        : program;
    return { id: base.replace(/\.(m?js|cjs|ts|py|jar)$/, ''), transport: 'stdio', command, args };
  }
  const url = new URL(text);
  // A legacy HTTP+SSE endpoint is conventionally at /sse (MCP 2024-11-05); otherwise Streamable HTTP.
  const transport = /\/sse\/?$/.test(url.pathname) ? 'sse' : 'http';
  return { id: url.hostname.replace(/^(www|mcp|api)\./, ''), transport, url: text };
}
