import { asString, isTable, RuleContext } from './context';
import { isMetadataEndpoint } from './urls';

interface AgentView {
  path: (string | number)[];
  name?: string;
  url?: string;
  apiKey?: string;
}

function agentsOf(value: Record<string, unknown>): AgentView[] {
  const a2a = isTable(value.a2a) ? value.a2a : undefined;
  const agents = Array.isArray(a2a?.external_agents) ? a2a.external_agents : [];
  return agents.flatMap((table, index): AgentView[] =>
    isTable(table)
      ? [
          {
            path: ['a2a', 'external_agents', index],
            name: asString(table.name),
            url: asString(table.url),
            apiKey: asString(table.api_key),
          },
        ]
      : [],
  );
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * `[[a2a.external_agents]]` (OpenFang, A2A Configuration): names are unique (each is the server
 * `a2a.<name>`), a metadata endpoint is never reached, and a key is not sent in the clear.
 */
export function checkExternalAgents(ctx: RuleContext): void {
  const first = new Map<string, AgentView>();
  for (const agent of agentsOf(ctx.value)) {
    if (agent.name !== undefined) {
      const earlier = first.get(agent.name);
      if (earlier) {
        const line = ctx.range([...earlier.path, 'name']).start.line + 1;
        ctx.report(
          [...agent.path, 'name'],
          ['value'],
          'error',
          'duplicate-agent',
          `duplicate external agent name "${agent.name}": already used at line ${line}`,
        );
      } else first.set(agent.name, agent);
    }
    let url: URL | undefined;
    try {
      url = agent.url && !agent.url.includes('${') ? new URL(agent.url) : undefined;
    } catch {
      url = undefined; // the schema's `format: uri` reports it
    }
    if (!url) continue;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isMetadataEndpoint(host))
      ctx.report(
        [...agent.path, 'url'],
        ['value'],
        'warning',
        'metadata-endpoint',
        `${host} is a cloud metadata endpoint: the kernel refuses to contact an agent there`,
      );
    else if (agent.apiKey && url.protocol === 'http:' && !isLoopback(host))
      ctx.report(
        [...agent.path, 'url'],
        ['value'],
        'warning',
        'key-in-clear',
        `api_key would be sent over plain http to ${host}: use https`,
      );
  }
}
