/**
 * The validator's two sessions with the server and what the checks see of them: the MGP session
 * opened as the kernel opens one (MGP §2.2 with MCPL §5.2, every feature set on), the context the
 * checks share, and the facts of the report.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { ConfiguredServer } from '../config/types';
import { hostMcplCapability, parseServerMcpl } from '../mcpl/capabilities';
import { McplMethods } from '../mcpl/protocol';
import type { MgpOffer } from '../mgp/negotiation';
import { describeIsolation } from '../sandbox/isolation';
import { foreseeIsolation } from '../sandbox/launch';
import type { ServerLaunchDeps } from '../sandbox/serverLaunch';
import { type CheckContext, stringList, type ValidateRunOptions } from './context';
import { mcplHostAnswers } from './hostAnswers';
import { Probe, type ProbeOptions } from './probe';
import { SchemaJudge } from './schemas';
import type { CheckResult, ValidationReport } from './types';

/** The MGP session, or undefined (said in the log) when the server would not open one. */
export async function openMgpSession(
  common: Omit<ProbeOptions, 'offer'>,
  offer: MgpOffer,
): Promise<Probe | undefined> {
  try {
    // As the kernel does: MGP (§2.2) and MCPL (MCPL §5.2) offered together.
    const mgp = await Probe.open({
      ...common,
      offer: { mgp: offer, experimental: { mcpl: hostMcplCapability() } },
      answer: mcplHostAnswers,
    });
    // MCPL §5.3: the host says which feature sets are on; the validator turns them all on.
    const mcpl = parseServerMcpl(mgp.capabilities).mcpl;
    if (mcpl?.featureSets.size)
      await mgp.connection.notify(McplMethods.featureSetsUpdate, {
        enabled: [...mcpl.featureSets.keys()],
        disabled: [],
      });
    return mgp;
  } catch (error) {
    common.log?.('warning', `the MGP session could not be opened: ${String(error)}`);
    return undefined;
  }
}

async function listOr(probe: Probe | undefined): Promise<CheckContext['plainTools']> {
  if (!probe) return undefined;
  try {
    return await probe.listTools();
  } catch {
    return undefined;
  }
}

/** The server's `capabilities.mgp` on the MGP session, when it is an object. */
function serverMgpOf(mgp: Probe | undefined): Record<string, unknown> | undefined {
  const raw = mgp?.capabilities.mgp;
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
    ? (raw as Record<string, unknown>)
    : undefined;
}

export async function checkContext(
  plain: Probe,
  mgp: Probe | undefined,
  offer: MgpOffer,
  options: ValidateRunOptions,
): Promise<CheckContext> {
  const serverMgp = serverMgpOf(mgp);
  const theirs = stringList(serverMgp?.extensions) ?? [];
  return {
    plain,
    mgp,
    plainTools: await listOr(plain),
    mgpTools: await listOr(mgp),
    mgpOffer: offer,
    serverMgp,
    negotiated: new Set(theirs.filter((name) => offer.extensions.includes(name))),
    options,
    schemas: new SchemaJudge(),
    earlier: new Map(),
  };
}

/** What the report says of the server besides its checks. */
export function reportFacts(
  context: CheckContext,
  results: readonly CheckResult[],
): Pick<ValidationReport, 'server' | 'protocolVersion' | 'isolation' | 'mgpVersion' | 'mcpl'> {
  const { plain, mgp, serverMgp } = context;
  const info = plain.connection.serverInfo;
  const mcpl = mgp && parseServerMcpl(mgp.capabilities).mcpl;
  const mcplResults = results.filter((result) => result.tier === 'mcpl');
  return {
    server: info && { name: String(info.name), version: String(info.version) },
    protocolVersion: plain.connection.protocolVersion,
    isolation: plain.isolation,
    mgpVersion: typeof serverMgp?.version === 'string' ? serverMgp.version : undefined,
    mcpl: mcpl && {
      version: mcpl.version,
      compliant: mcplResults.every((r) => r.status === 'pass' || r.status === 'missing'),
    },
  };
}

/** How a server that did not start would have run: much of why it did not (a file the sandbox hides). */
export async function foreseenIsolation(
  server: ConfiguredServer,
  sandbox: ServerLaunchDeps | undefined,
): Promise<string | undefined> {
  if (!sandbox || server.transport !== 'stdio') return undefined;
  const isolation = await foreseeIsolation({
    serverId: server.id,
    policy: server.settings.sandbox,
    configFolder: dirname(server.source.file),
    workspaceFolders: sandbox.workspaceFolders,
    home: sandbox.hostEnv.HOME || homedir(),
    hostEnv: sandbox.hostEnv,
  });
  return describeIsolation(isolation);
}
