/**
 * The MGP wire contract of this server in one place (MGP 0.5.2 draft): method and notification names,
 * what this server offers, and loose zod schemas for what the client sends. Loose on purpose: a
 * field the client adds must not make a message fail, and the SDK's own schemas strip MGP fields.
 */
import { z } from 'zod';
import { SERVER_ICONS } from './icons';

export const MGP_VERSION = '0.5.2';
export const SERVER_ID = 'example';
export const SERVER_INFO = { name: 'mgp-example-server', version: '0.1.0', icons: SERVER_ICONS };

/** The extensions this server implements (MGP §2.2); the active set is the intersection with the client's. */
export const OUR_EXTENSIONS = [
  'security',
  'access_control',
  'audit',
  'code_safety',
  'lifecycle',
  'streaming',
  'bidirectional',
  'error_handling',
] as const;
export type Extension = (typeof OUR_EXTENSIONS)[number];

/** Channels this server emits on (MGP §13.3, §13.5). */
export const EVENT_CHANNELS = [
  'system.heartbeat',
  'tool.completed',
  'model.token_usage',
  'security.alert',
];

/** Client → server requests (MGP §3.5, §3.6, §12.7, §13.4). */
export const Methods = {
  permissionAwait: 'mgp/permission/await',
  permissionGrant: 'mgp/permission/grant',
  streamCancel: 'mgp/stream/cancel',
  callbackRespond: 'mgp/callback/respond',
} as const;

/** Server → client notifications, except `audit` which flows client → server (MGP §1.6 layer 2). */
export const Notifications = {
  audit: 'notifications/mgp.audit',
  streamChunk: 'notifications/mgp.stream.chunk',
  streamProgress: 'notifications/mgp.stream.progress',
  lifecycle: 'notifications/mgp.lifecycle',
  callbackRequest: 'notifications/mgp.callback.request',
  event: 'notifications/mgp.event',
} as const;

/**
 * The envelope of a request or notification `method`, params left loose: handlers check them, so
 * bad params of a request give -32602 rather than the SDK's -32603.
 */
export function messageOf<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.looseObject({}).optional() });
}

const RequestIdSchema = z.union([z.string(), z.number()]);

/** `capabilities.mgp` of the initialize request (MGP §2.2); anything malformed counts as no extensions. */
export const ClientMgpSchema = z.looseObject({
  version: z.string().optional().catch(undefined),
  extensions: z.array(z.string()).optional().catch(undefined),
});

export const LooseInitializeRequestSchema = z.object({
  method: z.literal('initialize'),
  params: z.looseObject({
    protocolVersion: z.string(),
    capabilities: z.looseObject({}).optional(),
    clientInfo: z.looseObject({}).optional(),
  }),
});

/** tools/call as sent, `_mgp` (MGP §12.3) and `_meta.progressToken` kept. */
export const LooseCallToolRequestSchema = z.object({
  method: z.literal('tools/call'),
  params: z.looseObject({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    _mgp: z.looseObject({ stream: z.boolean().optional() }).optional().catch(undefined),
    _meta: z
      .looseObject({ progressToken: z.union([z.string(), z.number()]).optional() })
      .optional(),
  }),
});

export const PermissionAwaitParams = z.looseObject({
  request_id: RequestIdSchema,
  permissions: z.array(z.string()),
  policy: z.string().optional(),
  message: z.string().optional(),
});

export const GRANT_VALUES = ['approved', 'denied', 'deferred'] as const;
export type GrantValue = (typeof GRANT_VALUES)[number];

export const PermissionGrantParams = z.looseObject({
  request_id: RequestIdSchema.optional(),
  grants: z.record(z.string(), z.enum(GRANT_VALUES)),
  approved_by: z.string().optional(),
  expires_at: z.string().optional(),
});

export const StreamCancelParams = z.looseObject({
  request_id: RequestIdSchema,
  reason: z.string().optional(),
});

export const CallbackRespondParams = z.looseObject({
  callback_id: z.string(),
  response: z.unknown(),
});
