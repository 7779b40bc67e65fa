/**
 * MCPL capability negotiation (§5): what the host advertises under `capabilities.experimental.mcpl`
 * (§5.2), and what a server's own advertisement says (§5.1, §6.1, §14.1). A server without
 * `experimental.mcpl` is plain MCP and none of this applies to it (§3.3).
 */
import {
  FEATURE_USES,
  FeatureSetDeclaration,
  FeatureUse,
  isRecord,
  MCPL_VERSION,
} from './protocol';

/** MCPL §5.2: the host side mirrors the server shape; §14.1 for channels. */
export function hostMcplCapability(): Record<string, unknown> {
  return {
    version: MCPL_VERSION,
    pushEvents: true,
    contextHooks: { beforeInference: true, afterInference: { blocking: true } },
    inferenceRequest: { streaming: true },
    modelInfo: true,
    featureSets: true,
    scopes: true,
    rollback: true,
    channels: { register: true, publish: true, observe: true, lifecycle: true, streaming: true },
  };
}

/** What one server advertised (§5.1). */
export interface ServerMcpl {
  version: string;
  pushEvents: boolean;
  beforeInference: boolean;
  afterInference: { enabled: boolean; blocking: boolean };
  inferenceRequest: { enabled: boolean; streaming: boolean };
  modelInfo: boolean;
  featureSets: Map<string, FeatureSetDeclaration>;
  channels: { register: boolean; publish: boolean; observe: boolean; lifecycle: boolean };
}

export interface ParsedMcpl {
  mcpl?: ServerMcpl;
  /** What was wrong with the advertisement (logged; the rest is used). */
  problems: string[];
}

/** One `featureSets` entry (§6.2, Appendix B.2); undefined with a problem when malformed. */
export function featureSetDeclaration(
  name: string,
  raw: unknown,
  problems: string[],
): FeatureSetDeclaration | undefined {
  if (!isRecord(raw)) {
    problems.push(`feature set "${name}" is not an object (MCPL §6.2): ignored`);
    return undefined;
  }
  const uses = Array.isArray(raw.uses) ? raw.uses : [];
  const known = uses.filter((u): u is FeatureUse => FEATURE_USES.includes(u as FeatureUse));
  const unknown = uses.filter((u) => !FEATURE_USES.includes(u as FeatureUse));
  if (unknown.length)
    problems.push(
      `feature set "${name}" uses unknown capabilities ${unknown.map((u) => JSON.stringify(u)).join(', ')} (MCPL §6.2): left out`,
    );
  if (typeof raw.description !== 'string')
    problems.push(`feature set "${name}" has no description (required by MCPL §6.2)`);
  return {
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    uses: known,
    scoped: raw.scoped === true,
    rollback: raw.rollback === true,
  };
}

function flag(value: unknown): boolean {
  return value === true || isRecord(value);
}

/** Reads `capabilities.experimental.mcpl` of a server's initialize answer. */
export function parseServerMcpl(capabilities: Record<string, unknown>): ParsedMcpl {
  const experimental = capabilities.experimental;
  const raw = isRecord(experimental) ? experimental.mcpl : undefined;
  if (raw === undefined) return { problems: [] };
  if (!isRecord(raw))
    return { problems: ['experimental.mcpl is not an object: treated as plain MCP (MCPL §3.3)'] };
  const problems: string[] = [];
  const version = typeof raw.version === 'string' ? raw.version : '';
  if (!version.startsWith('0.')) problems.push(`MCPL version "${version}" is not 0.x; using 0.4`);
  const featureSets = new Map<string, FeatureSetDeclaration>();
  if (isRecord(raw.featureSets))
    for (const [name, entry] of Object.entries(raw.featureSets)) {
      const declared = featureSetDeclaration(name, entry, problems);
      if (declared) featureSets.set(name, declared);
    }
  const hooks = isRecord(raw.contextHooks) ? raw.contextHooks : {};
  const after = hooks.afterInference;
  const inference = raw.inferenceRequest;
  const channels = isRecord(raw.channels) ? raw.channels : {};
  return {
    mcpl: {
      version,
      pushEvents: raw.pushEvents === true,
      beforeInference: flag(hooks.beforeInference),
      afterInference: {
        enabled: flag(after),
        blocking: isRecord(after) && after.blocking === true,
      },
      inferenceRequest: {
        enabled: flag(inference),
        streaming: isRecord(inference) && inference.streaming === true,
      },
      modelInfo: raw.modelInfo === true,
      featureSets,
      channels: {
        register: channels.register === true,
        publish: channels.publish === true,
        observe: channels.observe === true,
        lifecycle: channels.lifecycle === true,
      },
    },
    problems,
  };
}
