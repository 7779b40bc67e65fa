/**
 * The operator's decisions on the server's permissions (MGP §3.5–3.6). A permission counts as held
 * only while its latest decision is `approved` and not past `expires_at`; `mgp/permission/await`
 * puts the listed permissions on hold until the grant arrives.
 */
export type PermissionState =
  'approved' | 'denied' | 'deferred' | 'awaiting' | 'expired' | 'not_granted';

export class Permissions {
  private readonly decisions = new Map<string, { value: string; expiresAt?: number }>();

  awaitDecision(permissions: string[]): void {
    for (const permission of permissions) this.decisions.set(permission, { value: 'awaiting' });
  }

  grant(grants: Record<string, string>, expiresAt?: string): void {
    const expires = expiresAt === undefined ? undefined : Date.parse(expiresAt);
    for (const [permission, value] of Object.entries(grants))
      this.decisions.set(permission, {
        value,
        expiresAt: expires === undefined || Number.isNaN(expires) ? undefined : expires,
      });
  }

  stateOf(permission: string, now = Date.now()): PermissionState {
    const decision = this.decisions.get(permission);
    if (!decision) return 'not_granted';
    if (
      decision.value === 'approved' &&
      decision.expiresAt !== undefined &&
      decision.expiresAt <= now
    )
      return 'expired';
    return (
      ['approved', 'denied', 'deferred', 'awaiting'].includes(decision.value)
        ? decision.value
        : 'not_granted'
    ) as PermissionState;
  }

  /** The first of `required` not held now, with its state; undefined when all are held. */
  firstMissing(
    required: readonly string[],
  ): { permission: string; state: PermissionState } | undefined {
    for (const permission of required) {
      const state = this.stateOf(permission);
      if (state !== 'approved') return { permission, state };
    }
    return undefined;
  }
}
