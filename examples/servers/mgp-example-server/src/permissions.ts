/**
 * Permission decisions the client delivered (MGP §3.5, §3.6). A permission counts as held only while
 * its latest decision is `approved` and not past `expires_at`; `mgp/permission/await` puts the listed
 * permissions back on hold until the matching grant arrives.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCodes, MgpError, parseParams } from './errors';
import {
  type GrantValue,
  Methods,
  PermissionAwaitParams,
  PermissionGrantParams,
  messageOf,
} from './wire';

export type PermissionState = GrantValue | 'awaiting' | 'expired' | 'not_granted';

interface Decision {
  value: GrantValue | 'awaiting';
  expiresAt?: number;
  approvedBy?: string;
}

export class Permissions {
  private decisions = new Map<string, Decision>();

  awaitDecision(permissions: string[]): void {
    for (const permission of permissions) this.decisions.set(permission, { value: 'awaiting' });
  }

  grant(grants: Record<string, GrantValue>, approvedBy?: string, expiresAt?: string): void {
    const expires = expiresAt === undefined ? undefined : Date.parse(expiresAt);
    for (const [permission, value] of Object.entries(grants)) {
      this.decisions.set(permission, {
        value,
        approvedBy,
        expiresAt: Number.isNaN(expires) ? undefined : expires,
      });
    }
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
    return decision.value;
  }

  /** The first of `required` not currently approved, with its state; undefined when all are held. */
  firstMissing(required: string[]): { permission: string; state: PermissionState } | undefined {
    for (const permission of required) {
      const state = this.stateOf(permission);
      if (state !== 'approved') return { permission, state };
    }
    return undefined;
  }
}

/** MGP §14.4 PERMISSION_DENIED for a tool call. */
export function permissionDenied(
  tool: string,
  permission: string,
  state: PermissionState,
): MgpError {
  return new MgpError(
    ErrorCodes.PermissionDenied,
    `Permission denied: tool "${tool}" needs "${permission}" (${state.replace('_', ' ')})`,
    {
      category: 'security',
      retryable: false,
      details: { permission, state },
    },
  );
}

export function installPermissionMethods(server: Server, permissions: Permissions): void {
  server.setRequestHandler(messageOf(Methods.permissionAwait), (request) => {
    const params = parseParams(PermissionAwaitParams, request.params, Methods.permissionAwait);
    permissions.awaitDecision(params.permissions);
    return { acknowledged: true };
  });
  server.setRequestHandler(messageOf(Methods.permissionGrant), (request) => {
    const params = parseParams(PermissionGrantParams, request.params, Methods.permissionGrant);
    permissions.grant(params.grants, params.approved_by, params.expires_at);
    return { acknowledged: true };
  });
}
