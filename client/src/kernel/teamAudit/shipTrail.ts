/**
 * What a host calls to ship its trail when `[kernel.audit.postgres]` is set: the URL's `${VAR}` and
 * `${secret:NAME}` resolved the way a server's are, then a shipper over the trail's log.
 */
import type { AuditTrail } from '../audit/auditTrail';
import { interpolate, type SecretSource } from '../config/interpolate';
import type { KernelSettings } from '../config/types';
import { AuditShipper } from './auditShipper';

export interface ShipTrailOptions {
  settings: KernelSettings;
  secrets: SecretSource;
  env: Readonly<Record<string, string | undefined>>;
  /** `$XDG_STATE_HOME/mgp` (audit/location.ts stateRoot). */
  stateRoot: string;
  onProblem(message: string): void;
}

/** The shipper, or undefined when no database is configured (or its URL cannot be resolved: said). */
export async function shipAuditTrail(
  trail: AuditTrail,
  options: ShipTrailOptions,
): Promise<AuditShipper | undefined> {
  const written = options.settings.audit.postgres?.url;
  if (!written) return undefined;
  const resolved = await interpolate(written, options.env, options.secrets);
  if (resolved.missing.length) {
    options.onProblem(
      `audit records are not shipped: ${resolved.missing.join(', ')} in [kernel.audit.postgres] url has no value`,
    );
    return undefined;
  }
  try {
    return await AuditShipper.start({
      url: resolved.value,
      logDirectory: trail.log.directory,
      stateRoot: options.stateRoot,
      onRecord: (listener) => trail.onRecord(listener),
      onProblem: options.onProblem,
    });
  } catch (error) {
    options.onProblem(
      `audit records are not shipped: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
