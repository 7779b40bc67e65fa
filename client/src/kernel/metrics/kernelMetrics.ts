/**
 * The kernel's metrics in Prometheus's text format (prom-client), for `/metrics` on the gateway.
 * Calls, refusals and approvals are counted from the audit trail's records as they become durable,
 * so a metric says what the trail says, whoever called (the gateway's clients, the terminal, an
 * agent); servers and sessions are read when scraped. Labels carry server and tool ids and check
 * names, never arguments, users' secrets or details.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AuditRecord } from '../audit/auditEvent';
import type { ServerManager } from '../lifecycle/serverManager';

export interface MetricsSources {
  /** Each durable audit record, in seq order; returns the unsubscribe. */
  onRecord(listener: (record: AuditRecord) => void): () => void;
  manager: ServerManager;
  /** Open gateway sessions, when a gateway is served. */
  sessions?: () => number;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class KernelMetrics {
  readonly registry = new Registry();
  private readonly calls: Counter<'server' | 'tool' | 'result'>;
  private readonly refusals: Counter<'check' | 'result'>;
  private readonly asked: Counter<'server' | 'tool'>;
  private readonly given: Counter<'server' | 'tool' | 'scope'>;
  private readonly latency: Histogram<'server'>;
  private readonly stop: () => void;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.calls = new Counter({
      name: 'mgp_tool_calls_total',
      help: 'Tool calls executed, by server, tool and result (SUCCESS or ERROR).',
      labelNames: ['server', 'tool', 'result'],
      registers,
    });
    this.refusals = new Counter({
      name: 'mgp_tool_call_refusals_total',
      help: 'Tool calls refused, by the check that refused them.',
      labelNames: ['check', 'result'],
      registers,
    });
    this.asked = new Counter({
      name: 'mgp_approvals_asked_total',
      help: 'Tool calls put to a person for approval.',
      labelNames: ['server', 'tool'],
      registers,
    });
    this.given = new Counter({
      name: 'mgp_approvals_given_total',
      help: 'Approvals a person gave, by scope (once, session, always).',
      labelNames: ['server', 'tool', 'scope'],
      registers,
    });
    this.latency = new Histogram({
      name: 'mgp_tool_call_duration_seconds',
      help: 'How long executed tool calls took, from the kernel taking them to their answer.',
      labelNames: ['server'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const manager = sources.manager;
    new Gauge({
      name: 'mgp_servers_up',
      help: 'Servers connected now.',
      registers,
      collect() {
        this.set(manager.list().filter((s) => s.state === 'connected').length);
      },
    });
    new Gauge({
      name: 'mgp_servers',
      help: 'Servers by lifecycle state (MGP §11), and those the managed policy blocks.',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        for (const server of manager.list())
          this.inc({ state: server.blockedByPolicy ? 'blocked_by_policy' : server.state });
      },
    });
    const sessions = sources.sessions;
    if (sessions)
      new Gauge({
        name: 'mgp_gateway_sessions',
        help: 'Gateway sessions open now.',
        registers,
        collect() {
          this.set(sessions());
        },
      });
    this.stop = sources.onRecord((record) => this.count(record));
  }

  private count(record: AuditRecord): void {
    const server = record.target.server_id ?? '';
    const tool = record.target.tool_name ?? '';
    const details = record.details;
    if (record.event_type === 'TOOL_EXECUTED') {
      this.calls.inc({ server, tool, result: record.result });
      if (typeof details.duration_ms === 'number')
        this.latency.observe({ server }, details.duration_ms / 1000);
    } else if (record.event_type === 'TOOL_BLOCKED') {
      const check =
        typeof details.check === 'string' ? details.check : String(details.reason ?? '');
      this.refusals.inc({ check: check || 'unknown', result: record.result });
    } else if (
      (record.event_type === 'PERMISSION_GRANTED' || record.event_type === 'PERMISSION_DENIED') &&
      details.kind === 'tool_call' &&
      record.actor.type === 'operator'
    ) {
      this.asked.inc({ server, tool });
      if (record.event_type === 'PERMISSION_GRANTED')
        this.given.inc({ server, tool, scope: String(details.scope ?? '') });
    }
  }

  /** The text a scrape gets. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  dispose(): void {
    this.stop();
  }
}
