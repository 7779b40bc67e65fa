/**
 * Which kernel-side validators a call gets (MGP §4.5, §17.2), and running them. Config decides when it
 * names a validator (`none` included). Otherwise the server's declared validator applies together with
 * the fallback chosen from the tool's name and arguments, so a plain MCP server is validated too and a
 * server cannot switch validation off by declaring `none`. Sandboxed servers (MGP §15.4) always get
 * network_restricted, and code safety at least at the strict level.
 * A server-declared `none` is ignored, and a server's `code_safety` is at least `standard` (see
 * effectiveSecurity.ts): only the operator's config can turn validation off or loosen it.
 */
import type { ListedTool } from '../connection/toolResults';
import type { SupervisedServer } from '../lifecycle/supervisedServer';
import type { EffectiveSecurity } from '../domain/security';
import {
  fallbackValidators,
  runValidators,
  ValidationOutcome,
  ValidatorOptions,
} from '../security/validators';
import type { CodeSafetySpec, ValidatorName } from '../domain/security';

const PASSED: ValidationOutcome = { ok: true, violations: [], applied: [] };
const STRICTER: Record<string, CodeSafetySpec['level']> = {
  unrestricted: 'strict',
  standard: 'strict',
  strict: 'strict',
  readonly: 'readonly',
};

export class CallValidation {
  private readonly fallbackCache = new WeakMap<ListedTool, ValidatorName[]>();

  constructor(private readonly options: ValidatorOptions = {}) {}

  validatorsFor(
    server: SupervisedServer,
    tool: ListedTool,
    security: EffectiveSecurity,
  ): ValidatorName[] {
    if (security.sources.validator === 'config')
      return security.validator && security.validator !== 'none' ? [security.validator] : [];
    const names = new Set<ValidatorName>(this.fallbackOf(tool));
    if (security.validator && security.validator !== 'none') names.add(security.validator);
    if (security.code_safety && security.code_safety.level !== 'unrestricted')
      names.add('code_safety');
    if (this.sandboxed(server)) names.add('network_restricted');
    return [...names];
  }

  private fallbackOf(tool: ListedTool): ValidatorName[] {
    let names = this.fallbackCache.get(tool);
    if (!names) {
      names = fallbackValidators(
        tool.name,
        tool.description,
        tool.inputSchema as Record<string, unknown> | undefined,
      );
      this.fallbackCache.set(tool, names);
    }
    return names;
  }

  private sandboxed(server: SupervisedServer): boolean {
    return server.config.policy.trustLevel === 'sandboxed';
  }

  async validate(
    server: SupervisedServer,
    tool: ListedTool,
    args: Record<string, unknown>,
    security: EffectiveSecurity,
  ): Promise<ValidationOutcome> {
    const names = this.validatorsFor(server, tool, security);
    if (names.length === 0) return PASSED;
    const codeSafety =
      security.code_safety && this.sandboxed(server)
        ? { ...security.code_safety, level: STRICTER[security.code_safety.level] ?? 'strict' }
        : security.code_safety;
    return runValidators(
      names,
      {
        toolName: tool.name,
        args,
        security: { ...security, code_safety: codeSafety },
        inputSchema: tool.inputSchema as Record<string, unknown> | undefined,
        description: tool.description,
      },
      this.options,
    );
  }
}
