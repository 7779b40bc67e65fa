/**
 * A validation report as people and CI read it (MGP §17.8): one line per check then the result, a
 * JUnit XML file (one test case per check, a FAIL a failure, a MISSING or SKIPPED skipped), and the
 * tier badge as SVG with the Markdown line that shows it.
 */
import type { CheckResult, CheckTier, ValidationReport } from './types';

const STATUS_WORD = { pass: 'PASS', missing: 'MISSING', fail: 'FAIL', skipped: 'SKIPPED' } as const;

export function tierLabel(tier: CheckTier): string {
  return tier === 0 ? 'MCP' : tier === 'mcpl' ? 'MCPL' : `Tier ${tier}`;
}

/** "✓ Tier 1: Capability negotiation (MGP §2) ... PASS", as §17.8 shows it. */
export function checkLine(check: CheckResult): string {
  const mark = check.status === 'pass' ? '✓' : '✗';
  return `${mark} ${tierLabel(check.tier)}: ${check.title} (${check.section}) ... ${STATUS_WORD[check.status]}`;
}

/** The lines under a check: what was seen, and for a FAIL what was expected, what came and what to do. */
export function checkDetails(check: CheckResult): string[] {
  const lines = [check.detail];
  if (check.expected) lines.push(`expected: ${check.expected}`);
  if (check.received) lines.push(`received: ${check.received}`);
  if (check.exchange)
    lines.push(`sent: ${check.exchange.sent}`, `answer: ${check.exchange.received}`);
  if (check.advice) lines.push(`to do: ${check.advice}`);
  return lines.filter((line) => line !== '');
}

/** "Result: Tier 2 compliant (6/11 extensions)", or why there is no tier. */
export function resultLine(report: ValidationReport): string {
  const extensions = `${report.extensions.passed.length}/${report.extensions.total} extensions`;
  const mcpl = report.mcpl
    ? `; MCPL ${report.mcpl.version} ${report.mcpl.compliant ? 'compliant' : 'not compliant'}`
    : '';
  if (!report.mcpCompliant) return `Result: not MCP compliant (${extensions})${mcpl}`;
  if (report.tier === 0) return `Result: MCP compliant, no MGP tier (${extensions})${mcpl}`;
  return `Result: Tier ${report.tier} compliant (${extensions})${mcpl}`;
}

function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** JUnit XML: one testsuite, one testcase per check. */
export function junitXml(report: ValidationReport): string {
  const failures = report.checks.filter((check) => check.status === 'fail').length;
  const skipped = report.checks.filter(
    (check) => check.status === 'missing' || check.status === 'skipped',
  ).length;
  const cases = report.checks.map((check) => {
    const open = `    <testcase classname="mgp-validate.${xml(tierLabel(check.tier).replace(' ', '').toLowerCase())}" name="${xml(`${check.title} (${check.section})`)}" time="${(check.durationMs / 1000).toFixed(3)}"`;
    if (check.status === 'pass') return `${open}/>`;
    if (check.status === 'fail')
      return `${open}>\n      <failure message="${xml(check.detail)}">${xml(checkDetails(check).join('\n'))}</failure>\n    </testcase>`;
    return `${open}>\n      <skipped message="${xml(`${STATUS_WORD[check.status]}: ${check.detail}`)}"/>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mgp validate" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(`mgp validate ${report.kind ?? 'server'} ${report.target}`)}" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}" timestamp="${report.startedAt}">`,
    `    <properties><property name="result" value="${xml(resultLine(report))}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const BADGE_COLOURS = ['#9f9f9f', '#97ca00', '#4c1', '#007ec6', '#8a2be2'];

/** The badge's words: "MGP | Tier 2", or "MGP | none". */
export function badgeText(report: ValidationReport): { label: string; value: string } {
  return { label: 'MGP', value: report.tier === 0 ? 'none' : `Tier ${report.tier}` };
}

/** The tier badge as a flat SVG (§17.8's compliance badges), readable on light and dark pages. */
export function badgeSvg(report: ValidationReport): string {
  const { label, value } = badgeText(report);
  const width = (text: string) => 10 + text.length * 7;
  const left = width(label);
  const right = width(value);
  const colour = BADGE_COLOURS[report.tier];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + right}" height="20" role="img" aria-label="${label}: ${value}">`,
    `  <title>${label}: ${value}</title>`,
    `  <rect width="${left}" height="20" fill="#555"/>`,
    `  <rect x="${left}" width="${right}" height="20" fill="${colour}"/>`,
    `  <g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`,
    `    <text x="${left / 2}" y="14">${label}</text>`,
    `    <text x="${left + right / 2}" y="14">${xml(value)}</text>`,
    '  </g>',
    '</svg>',
    '',
  ].join('\n');
}

/** The Markdown line that shows the badge file (its path as the README will find it). */
export function badgeMarkdown(report: ValidationReport, path: string): string {
  const { label, value } = badgeText(report);
  return `![${label} ${value}](${path})`;
}
