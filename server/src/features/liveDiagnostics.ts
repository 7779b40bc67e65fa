import type { KernelStateParams } from '@shared/lspMessages';
import type { Analysis } from '../analysis';
import { CheckDiagnostic } from '@shared/configCheck/diagnostic';
import { locate, PointerLocation, pointerOf } from '@shared/configCheck/pointers';
import { isTable } from '@shared/configCheck/semantic/context';
import { featureSetMatches } from '@shared/configCheck/semantic/featureSets';

/** The path of the server table with this id in the analysed document, if it has one. */
export function serverPath(analysis: Analysis, id: string): (string | number)[] | undefined {
  const listKey = analysis.format === 'openfang' ? 'mcp_servers' : 'servers';
  const idKey = analysis.format === 'openfang' ? 'name' : 'id';
  const list = analysis.value?.[listKey];
  if (!Array.isArray(list)) return undefined;
  const index = list.findIndex((table) => isTable(table) && table[idKey] === id);
  return index >= 0 ? [listKey, index] : undefined;
}

/** Diagnostics only the running kernel can give: overridden servers, start failures, undeclared feature sets. */
export function liveDiagnostics(
  analysis: Analysis,
  path: string,
  state: KernelStateParams,
): CheckDiagnostic[] {
  if (!analysis.pointers || !analysis.value) return [];
  const pointers = analysis.pointers;
  const at = (p: (string | number)[], prefer: (keyof PointerLocation)[]) =>
    locate(pointers, pointerOf(p), prefer);
  const diagnostics: CheckDiagnostic[] = [];
  const idKey = analysis.format === 'openfang' ? 'name' : 'id';

  for (const shadowed of state.shadowed.filter((s) => s.file === path)) {
    const server = serverPath(analysis, shadowed.id);
    const range = server && at([...server, idKey], ['value']);
    if (range)
      diagnostics.push({
        range,
        severity: 'information',
        code: 'live/overridden',
        message: `server "${shadowed.id}" is also defined in ${shadowed.winnerFile}:${shadowed.winnerLine}, which is nearer and wins; this definition is not used`,
      });
  }

  for (const live of state.servers.filter((s) => s.file === path)) {
    const server = serverPath(analysis, live.id);
    if (!server) continue;
    if (live.state === 'error' && live.error) {
      const range = at(server, ['header', 'key']);
      if (range)
        diagnostics.push({
          range,
          severity: 'error',
          code: 'live/start-failed',
          message: `server "${live.id}" failed: ${live.error}`,
        });
    }
    if (live.featureSets)
      diagnostics.push(
        ...undeclaredFeatureSets(
          analysis,
          server,
          live.id,
          live.featureSets.map((f) => f.name),
          at,
        ),
      );
  }
  return diagnostics;
}

function undeclaredFeatureSets(
  analysis: Analysis,
  server: (string | number)[],
  id: string,
  declared: string[],
  at: (
    p: (string | number)[],
    prefer: (keyof PointerLocation)[],
  ) => CheckDiagnostic['range'] | undefined,
): CheckDiagnostic[] {
  const table = (analysis.value?.[server[0] as string] as unknown[])[server[1] as number];
  const mcpl = isTable(table) ? table.mcpl : undefined;
  if (!isTable(mcpl)) return [];
  const found: CheckDiagnostic[] = [];
  const report = (path: (string | number)[], prefer: (keyof PointerLocation)[], name: string) => {
    const range = at(path, prefer);
    if (range)
      found.push({
        range,
        severity: 'warning',
        code: 'live/undeclared-feature-set',
        message: `server "${id}" does not declare feature set "${name}" (it declares ${declared.length ? declared.join(', ') : 'none'}): enabling it would fail with MCPL error -32003`,
      });
  };
  for (const list of ['enabled_feature_sets', 'disabled_feature_sets']) {
    const items = mcpl[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item, index) => {
      if (typeof item === 'string' && !declared.some((name) => featureSetMatches(item, name)))
        report([...server, 'mcpl', list, index], ['value'], item);
    });
  }
  if (isTable(mcpl.scopes)) {
    for (const name of Object.keys(mcpl.scopes))
      if (!declared.includes(name)) report([...server, 'mcpl', 'scopes', name], ['key'], name);
  }
  return found;
}
