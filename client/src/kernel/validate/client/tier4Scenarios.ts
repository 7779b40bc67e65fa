/**
 * The client scenario of MGP Tier 4 (§17.5): dynamic tool discovery (§16.5). The kernel indexes
 * the tools servers list and searches them itself (§16.4), so what a server can see is the outcome:
 * asked to find a tool for a need and call it, the client calls the one tool that fits, and never
 * sends its own kernel tools (`mgp.tools.discover`…) to a server (§17.2 items 3–4).
 */
import { fail, missing, pass, shown } from '../context';
import { allCalls, exchangeOf, notOffered, sessionsWith, text } from './observe';
import type { ClientCheck, ClientScenario, ProbeTool } from './scenario';

const WANTED = 'convert_currency';
const QUERY = 'convert an amount of money from one currency to another';

const OTHERS: [string, string][] = [
  ['read_file', 'Read the contents of a file at the given path'],
  ['send_email', 'Send an email message to a recipient'],
  ['resize_image', 'Resize an image to the given width and height'],
  ['search_web', 'Search the web and return the top results'],
  ['translate_text', 'Translate text from one language into another'],
  ['create_calendar_event', 'Create an event in the calendar'],
  ['query_database', 'Run a read-only SQL query against the database'],
  ['compress_archive', 'Compress files into a zip archive'],
];

function described(name: string, description: string, category: string): ProbeTool {
  return {
    name,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        amount: { type: 'number' },
        from: { type: 'string' },
        to: { type: 'string' },
      },
    },
    security: { risk_level: 'safe' },
    // What the tool index holds besides the description (MGP §16.4).
    listed: { categories: [category], keywords: name.split('_') },
    annotations: { readOnlyHint: true },
    run: async () => text(`${name} ran`),
  };
}

const toolDiscovery: ClientCheck = {
  id: 'mgp.client.tool-discovery',
  tier: 4,
  title: 'Dynamic tool discovery: the tool found is called',
  section: 'MGP §16.4, §16.5',
  extension: '§16 Tool Discovery',
  judge(seen) {
    const absent = notOffered(
      seen,
      'tool_discovery',
      'offer "tool_discovery" and search the tools',
    );
    if (absent) return absent;
    const calls = allCalls(seen);
    const kernelTool = calls.find(({ call }) => String(call.params.name).startsWith('mgp.'));
    if (kernelTool)
      return fail({
        detail: `the client sent its kernel tool ${String(kernelTool.call.params.name)} to the server`,
        expected: 'mgp.* kernel tools answered by the client itself (MGP §17.2, §16.5)',
        received: `tools/call ${String(kernelTool.call.params.name)}`,
        exchange: exchangeOf(kernelTool.session, kernelTool.call.id),
      });
    if (!sessionsWith(seen, 'tool_discovery').some((s) => s.requests('tools/list').length))
      return missing("the client never listed the probe's tools to index them (MGP §16.4)");
    const names = calls.map(({ call }) => String(call.params.name));
    if (!names.includes(WANTED) || names.some((name) => name !== WANTED))
      return fail({
        detail: names.length
          ? `asked for "${QUERY}", the client called ${names.join(', ')}`
          : `asked for "${QUERY}", the client called no tool`,
        expected: `${WANTED}, and only it (the one of ${OTHERS.length + 1} tools that fits)`,
        received: shown(names),
      });
    return pass(`asked for "${QUERY}", the client found and called ${WANTED} alone`);
  },
};

export const TOOL_DISCOVERY_SCENARIO: ClientScenario = {
  name: 'mgp-tool-discovery',
  context: {
    ask: 'find a tool for the query with dynamic tool discovery, and call the best one found',
    query: QUERY,
    arguments: { amount: 10, from: 'EUR', to: 'USD' },
  },
  tools: () => [
    ...OTHERS.map(([name, description]) => described(name, description, 'general')),
    described(
      WANTED,
      'Convert an amount of money between currencies at the current rate',
      'finance',
    ),
  ],
  checks: [toolDiscovery],
};
