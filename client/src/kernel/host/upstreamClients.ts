/**
 * Clients above the kernel (the gateway's MCP clients) that may answer, in the kernel's place, what a
 * server asks of its client (MCP client features: roots, sampling, elicitation). A route answers
 * undefined to leave a request to the kernel, which then answers as it always does (the workspace's
 * roots, sampling reviewed by the operator, elicitation asked of the operator).
 */
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  Root,
} from '@modelcontextprotocol/sdk/types.js';

/** An answer taken over by an upstream client, and who that is (for the audit trail). */
export interface UpstreamAnswer<T> {
  by: string;
  answer: Promise<T>;
}

export interface UpstreamRoute {
  roots(serverId: string): UpstreamAnswer<Root[]> | undefined;
  createMessage(
    serverId: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): UpstreamAnswer<CreateMessageResult> | undefined;
  elicit(
    serverId: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
  ): UpstreamAnswer<ElicitResult> | undefined;
}

export class UpstreamClients {
  private readonly routes: UpstreamRoute[] = [];

  /** Adds a route, asked before the ones added earlier; returns its removal. */
  add(route: UpstreamRoute): () => void {
    this.routes.unshift(route);
    return () => {
      const at = this.routes.indexOf(route);
      if (at >= 0) this.routes.splice(at, 1);
    };
  }

  /** The first route's answer to a request, or undefined when no route takes it. */
  first<T>(
    ask: (route: UpstreamRoute) => UpstreamAnswer<T> | undefined,
  ): UpstreamAnswer<T> | undefined {
    for (const route of this.routes) {
      const answer = ask(route);
      if (answer) return answer;
    }
    return undefined;
  }
}
