/** A validation report as the report page and the server page show it. */
import type { ValidationCheckView, ValidationResultView } from '@shared/validationMessages';
import { type CheckResult, resultLine, tierLabel, type ValidationReport } from '../../kernel';

export function checkView(check: CheckResult): ValidationCheckView {
  return {
    id: check.id,
    group: tierLabel(check.tier),
    title: check.title,
    section: check.section,
    status: check.status,
    detail: check.detail,
    expected: check.expected,
    received: check.received,
    exchange: check.exchange,
    advice: check.advice,
    durationMs: check.durationMs,
  };
}

export function resultView(report: ValidationReport): ValidationResultView {
  const mcpl = report.mcpl;
  return {
    result: resultLine(report).replace(/^Result: /, ''),
    tier: report.tier,
    extensions: { passed: report.extensions.passed.length, total: report.extensions.total },
    mcpCompliant: report.mcpCompliant,
    mcpl: mcpl && `MCPL ${mcpl.version}: ${mcpl.compliant ? 'compliant' : 'not compliant'}`,
    server: report.server && `${report.server.name} ${report.server.version}`,
    protocolVersion: report.protocolVersion,
    mgpVersion: report.mgpVersion,
    isolation: report.isolation,
    startedAt: report.startedAt,
    durationMs: report.durationMs,
  };
}

/** The badge on a server's page: "MGP Tier 2 · 7/11 extensions", or why there is no tier. */
export function badgeText(report: ValidationReport): string {
  const extensions = `${report.extensions.passed.length}/${report.extensions.total} extensions`;
  if (!report.mcpCompliant) return `not MCP compliant · ${extensions}`;
  if (report.tier === 0) return `no MGP tier · ${extensions}`;
  return `MGP Tier ${report.tier} · ${extensions}`;
}
