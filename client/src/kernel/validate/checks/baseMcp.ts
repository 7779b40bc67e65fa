/**
 * Base MCP (MCP 2025-11-25), judged on the session that offered nothing beyond it: initialize and
 * version negotiation, tools/list with its pagination, the tools' schemas, structuredContent against
 * outputSchema, errors as JSON-RPC errors, and ping.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import {
  callableTools,
  callTool,
  type Check,
  describeOutcome,
  exchangeOf,
  fail,
  lastExchange,
  missing,
  pass,
  request,
  shown,
  skipped,
} from '../context';

const initialize: Check = {
  id: 'mcp.initialize',
  tier: 0,
  title: 'Initialize and version negotiation',
  section: 'MCP Lifecycle',
  async run({ plain }) {
    const version = plain.connection.protocolVersion;
    const info = plain.connection.serverInfo;
    const exchange = lastExchange(plain, 'initialize');
    if (!version || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
      return fail({
        detail: 'initialize answered with a protocol version no MCP client knows',
        expected: `the version the client asked for, or another it supports (${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
        received: shown(version),
        exchange,
      });
    if (!info || typeof info.name !== 'string' || typeof info.version !== 'string')
      return fail({
        detail: 'initialize answered without serverInfo.name and serverInfo.version',
        expected: 'serverInfo with a name and a version (MCP Lifecycle: initialization)',
        received: shown(info),
        exchange,
      });
    return pass(`protocol ${version}, server ${info.name} ${info.version}`);
  },
};

const ping: Check = {
  id: 'mcp.ping',
  tier: 0,
  title: 'ping',
  section: 'MCP Ping',
  async run({ plain, options }) {
    const outcome = await request(plain, 'ping', {}, options.checkTimeoutMs);
    const exchange = exchangeOf(plain, outcome.id);
    if (outcome.kind !== 'result')
      return fail({
        detail: 'ping was not answered with an empty result',
        expected: 'an empty result, promptly',
        received: describeOutcome(outcome),
        exchange,
      });
    const extra = Object.keys(outcome.result).filter((key) => key !== '_meta');
    if (extra.length)
      return fail({
        detail: 'ping was answered with fields an empty result does not have',
        expected: 'an empty result ({})',
        received: shown(outcome.result),
        exchange,
      });
    return pass('answered with an empty result');
  },
};

const MAX_PAGES = 100;

const toolsList: Check = {
  id: 'mcp.tools-list',
  tier: 0,
  title: 'tools/list and pagination',
  section: 'MCP Tools, Pagination',
  async run({ plain, options }) {
    if (!plain.capabilities.tools)
      return missing('the server declares no tools capability', 'declare `tools` at initialize');
    const names = new Set<string>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      pages++;
      const outcome = await request(
        plain,
        'tools/list',
        cursor ? { cursor } : {},
        options.checkTimeoutMs,
      );
      const exchange = exchangeOf(plain, outcome.id);
      if (outcome.kind !== 'result')
        return fail({
          detail: `tools/list${cursor ? ' with a cursor it gave' : ''} failed`,
          expected: 'a result with a tools array',
          received: describeOutcome(outcome),
          exchange,
        });
      const page = outcome.result as unknown as { tools?: unknown; nextCursor?: unknown };
      if (!Array.isArray(page.tools))
        return fail({
          detail: 'tools/list answered without a tools array',
          expected: '{ tools: [...] }',
          received: shown(page),
          exchange,
        });
      for (const tool of page.tools as { name?: unknown }[]) {
        if (typeof tool?.name !== 'string')
          return fail({
            detail: 'a listed tool has no name',
            expected: 'every tool with a string name',
            received: shown(tool),
            exchange,
          });
        if (names.has(tool.name))
          return fail({
            detail: `tool "${tool.name}" is listed twice${pages > 1 ? ' across pages' : ''}`,
            expected: 'each tool once: tool names are unique',
            received: `"${tool.name}" again on page ${pages}`,
            exchange,
          });
        names.add(tool.name);
      }
      if (page.nextCursor === undefined || page.nextCursor === null) break;
      if (typeof page.nextCursor !== 'string')
        return fail({
          detail: 'nextCursor is not a string',
          expected: 'an opaque string cursor, or no nextCursor on the last page',
          received: shown(page.nextCursor),
          exchange,
        });
      if (cursors.has(page.nextCursor))
        return fail({
          detail: 'tools/list gave the same cursor twice: following it never ends',
          expected: 'a new cursor per page, and none on the last',
          received: `cursor ${shown(page.nextCursor)} again on page ${pages}`,
          exchange,
        });
      if (pages >= MAX_PAGES)
        return fail({
          detail: `tools/list was still giving cursors after ${MAX_PAGES} pages`,
          expected: 'a last page without nextCursor',
          received: `page ${pages} with nextCursor ${shown(page.nextCursor)}`,
          exchange,
        });
      cursors.add(page.nextCursor);
      cursor = page.nextCursor;
    }
    return pass(
      `${names.size} tool${names.size === 1 ? '' : 's'} on ${pages} page${pages === 1 ? '' : 's'}`,
    );
  },
};

const schemas: Check = {
  id: 'mcp.tool-schemas',
  tier: 0,
  title: 'Tool schemas compile as JSON Schema 2020-12',
  section: 'MCP Tools',
  async run({ plainTools, schemas: judge }) {
    if (!plainTools) return skipped('tools/list failed, so there are no schemas to judge');
    if (!plainTools.length) return missing('the server lists no tools');
    const problems: string[] = [];
    let outputs = 0;
    for (const tool of plainTools) {
      const input = tool.inputSchema === undefined ? 'missing' : judge.problemOf(tool.inputSchema);
      if (input) problems.push(`${tool.name}: inputSchema ${input}`);
      if (tool.outputSchema !== undefined) {
        outputs++;
        const output = judge.problemOf(tool.outputSchema);
        if (output) problems.push(`${tool.name}: outputSchema ${output}`);
      }
    }
    if (problems.length)
      return fail({
        detail: `${problems.length} schema${problems.length === 1 ? '' : 's'} cannot be used`,
        expected:
          'each inputSchema (and outputSchema) a JSON Schema 2020-12 object schema of type "object"',
        received: problems.slice(0, 8).join('; '),
        advice: 'fix the schemas named; a client cannot check arguments or results against them',
      });
    return pass(
      `${plainTools.length} input schema${plainTools.length === 1 ? '' : 's'}${outputs ? ` and ${outputs} output schema${outputs === 1 ? '' : 's'}` : ''} compile`,
    );
  },
};

const structuredContent: Check = {
  id: 'mcp.structured-content',
  tier: 0,
  title: 'structuredContent against outputSchema',
  section: 'MCP Tools: structured content',
  async run(context) {
    const { plain, plainTools, schemas: judge, options } = context;
    const declaring = (plainTools ?? []).filter((tool) => tool.outputSchema !== undefined);
    if (!declaring.length) return missing('no tool declares an outputSchema');
    const { callable, left } = callableTools(context, declaring);
    if (!callable.length)
      return skipped(
        `no tool with an outputSchema could be called safely: ${left.join('; ')}`,
        'mark a read-only tool safe (MGP §4) or readOnlyHint, or run with --allow-dangerous',
      );
    let judged = 0;
    for (const { tool, args } of callable.slice(0, 5)) {
      const outcome = await callTool(plain, tool, args, { timeoutMs: options.checkTimeoutMs });
      if (outcome.kind !== 'result' || outcome.result.isError) continue;
      judged++;
      const structured = outcome.result.structuredContent;
      const exchange = exchangeOf(plain, outcome.id);
      if (structured === undefined)
        return fail({
          detail: `${tool.name} declares an outputSchema but its result has no structuredContent`,
          expected: 'structuredContent that conforms to the outputSchema (MUST)',
          received: describeOutcome(outcome),
          exchange,
        });
      const mismatch = judge.mismatch(tool.outputSchema as Record<string, unknown>, structured);
      if (mismatch)
        return fail({
          detail: `${tool.name}'s structuredContent does not conform to its outputSchema`,
          expected: shown(tool.outputSchema),
          received: `${shown(structured)} (${mismatch})`,
          exchange,
        });
    }
    if (!judged)
      return skipped(
        `every call of a tool with an outputSchema ended in an error, with arguments made from its schema`,
      );
    return pass(`${judged} result${judged === 1 ? '' : 's'} conform to their outputSchema`);
  },
};

const errors: Check = {
  id: 'mcp.errors',
  tier: 0,
  title: 'Errors as JSON-RPC errors',
  section: 'MCP Base Protocol, Tools: errors',
  async run({ plain, options }) {
    const unknownMethod = await request(
      plain,
      'mgp-validate/no-such-method',
      {},
      options.checkTimeoutMs,
    );
    if (unknownMethod.kind !== 'error' || unknownMethod.code !== -32601)
      return fail({
        detail: 'a request for a method the server does not have was not refused as such',
        expected: 'a JSON-RPC error -32601 (Method not found)',
        received: describeOutcome(unknownMethod),
        exchange: exchangeOf(plain, unknownMethod.id),
      });
    if (!plain.capabilities.tools) return pass('an unknown method is refused with -32601');
    const unknownTool = await callTool(
      plain,
      'mgp-validate-no-such-tool',
      {},
      { timeoutMs: options.checkTimeoutMs },
    );
    if (
      unknownTool.kind === 'timeout' ||
      (unknownTool.kind === 'result' && !unknownTool.result.isError)
    )
      return fail({
        detail: 'a call of a tool the server does not list was not refused',
        expected: 'a JSON-RPC error (-32602, unknown tool) or a result with isError: true',
        received: describeOutcome(unknownTool),
        exchange: exchangeOf(plain, unknownTool.id),
      });
    return pass(
      `an unknown method is refused with -32601, an unknown tool with ${unknownTool.kind === 'error' ? `error ${unknownTool.code}` : 'isError'}`,
    );
  },
};

export const BASE_MCP_CHECKS: readonly Check[] = [
  initialize,
  toolsList,
  schemas,
  structuredContent,
  errors,
  ping,
];
