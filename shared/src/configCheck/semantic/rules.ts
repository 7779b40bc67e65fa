import type { ConfigFormat } from '../../configFiles';
import type { CheckDiagnostic } from '../diagnostic';
import type { PointerMap } from '../pointers';
import { checkExternalAgents } from './a2aAgents';
import { checkCommands } from './commands';
import { RuleContext, RuleEnvironment } from './context';
import { checkFeatureSets } from './featureSets';
import { checkPermissions } from './permissions';
import { checkBackoff } from './restarts';
import { checkDuplicateIds, checkTransportNeeds, mgpServers, openFangServers } from './servers';
import { checkPolicyServers, checkPostgresUrl } from './teamRules';
import { checkUrls } from './urls';
import { checkLiteralSecrets, checkUnsetVariables } from './values';
import { checkWorkspaceKernel } from './workspaceKernel';

/** The rules a schema cannot express, in one pass over the parsed document. */
export function runSemanticRules(
  format: ConfigFormat,
  value: Record<string, unknown>,
  map: PointerMap,
  environment: RuleEnvironment,
  text: string,
  path?: string,
): CheckDiagnostic[] {
  const ctx = new RuleContext(value, map, environment, text);
  if (format === 'policy') {
    checkPolicyServers(ctx);
    checkPostgresUrl(ctx);
    checkUnsetVariables(ctx);
    return ctx.diagnostics;
  }
  const servers = format === 'openfang' ? openFangServers(value) : mgpServers(value);
  checkDuplicateIds(ctx, servers);
  checkTransportNeeds(ctx, servers);
  checkCommands(ctx, servers);
  checkUrls(ctx, servers);
  checkUnsetVariables(ctx);
  checkLiteralSecrets(ctx);
  checkExternalAgents(ctx);
  if (format === 'mgp') {
    checkBackoff(ctx, servers);
    checkPermissions(ctx, servers);
    checkFeatureSets(ctx, servers);
    checkWorkspaceKernel(ctx, path);
    checkPostgresUrl(ctx);
  }
  return ctx.diagnostics;
}
