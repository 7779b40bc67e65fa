/**
 * The spec sections a validation check names ("MGP §3.4–3.6", "MCPL §6.1, §6.5", "MCP Tools,
 * Pagination"), as links: each MGP or MCPL section to the bundled text at its heading (the first of
 * a range), each MCP page to the published specification. The host decides where a link goes; the
 * report page only names the spec and the anchor.
 */
export type SpecName = 'mgp' | 'mcpl' | 'mcp';

export interface SectionLink {
  /** As shown: "MGP §3.4", "MCP Tools". */
  label: string;
  spec: SpecName;
  /** A section number ("3.4") for MGP and MCPL, a page name ("Tools") for MCP. */
  anchor: string;
}

/** The pages of the MCP specification (2025-11-25) the checks cite, by the name they use. */
export const MCP_PAGES: Readonly<Record<string, string>> = {
  Lifecycle: 'basic/lifecycle',
  'Base Protocol': 'basic',
  Ping: 'basic/utilities/ping',
  Tools: 'server/tools',
  Pagination: 'server/utilities/pagination',
};

export const MCP_SPEC_URL = 'https://modelcontextprotocol.io/specification/2025-11-25/';

export function sectionLinks(section: string): SectionLink[] {
  const spec = /^(MGP|MCPL|MCP)\b/.exec(section)?.[1];
  if (!spec) return [];
  if (spec === 'MCP')
    return section
      .slice(4)
      .split(/[,:]/)
      .map((part) => part.trim())
      .filter((page) => page in MCP_PAGES)
      .map((page) => ({ label: `MCP ${page}`, spec: 'mcp', anchor: page }));
  const name = spec === 'MGP' ? 'mgp' : 'mcpl';
  // A range ("§3.4–3.6") is one link, to its first section.
  return [...section.matchAll(/§(\d+(?:\.\d+)*)(–\d+(?:\.\d+)*)?/g)].map(([, number, rest]) => ({
    label: `${spec} §${number}${rest ?? ''}`,
    spec: name,
    anchor: number,
  }));
}

/** Whether a link a webview sent names a section the host can open. */
export function isSectionLink(value: unknown): value is Omit<SectionLink, 'label'> {
  if (typeof value !== 'object' || value === null) return false;
  const { spec, anchor } = value as Record<string, unknown>;
  if (typeof anchor !== 'string') return false;
  if (spec === 'mcp') return Object.hasOwn(MCP_PAGES, anchor);
  return (spec === 'mgp' || spec === 'mcpl') && /^\d+(\.\d+){0,3}$/.test(anchor);
}

/** The line of section `number`'s heading in a spec's Markdown ("3.4" → "### 3.4 Permission Request Flow"). */
export function headingLine(text: string, number: string): number | undefined {
  const heading = new RegExp(`^#{1,6} ${number.replace(/\./g, '\\.')}\\.?\\s`);
  const index = text.split('\n').findIndex((line) => heading.test(line));
  return index === -1 ? undefined : index;
}
