/**
 * The MCPL 0.4.1 wire contract of this server: what it declares under `experimental.mcpl` (MCPL
 * §5.1, §6.1, §14.1), the method names it sends and answers (§4.1), and a loose envelope for them.
 */
import { z } from 'zod';

export const SERVER_INFO = { name: 'mcpl-example-server', version: '0.1.0' };

/** MCPL §6.1: one feature set per MCPL feature this server shows. */
export const FEATURE_SETS = {
  'memory.facts': {
    description:
      'Remember facts in a notebook whose every change is a checkpoint you can roll back',
    uses: ['tools'],
    rollback: true,
  },
  'memory.context': {
    description: 'Add the remembered facts to the model context before each answer',
    uses: ['contextHooks.beforeInference', 'contextHooks.afterInference'],
  },
  'files.annotate': {
    description: 'Attach notes to file paths; each path is a scope the host approves',
    uses: ['tools'],
    scoped: true,
  },
  'alerts.push': {
    description: 'Tell the host about an alert as a push event',
    uses: ['pushEvents', 'tools'],
  },
  'assist.summarize': {
    description: "Summarize the notebook with the host's model",
    uses: ['inferenceRequest', 'tools'],
  },
  'chat.room': {
    description: 'A chat room channel: read what people say, post into it',
    uses: ['channels.publish', 'channels.observe', 'tools'],
  },
} as const;

export type FeatureSetName = keyof typeof FEATURE_SETS;

export const MCPL_CAPABILITY = {
  version: '0.4',
  pushEvents: true,
  contextHooks: { beforeInference: true, afterInference: { blocking: false } },
  inferenceRequest: { streaming: true },
  modelInfo: true,
  featureSets: FEATURE_SETS,
  channels: { register: true, publish: true, observe: true, lifecycle: true, streaming: true },
};

export const Methods = {
  featureSetsUpdate: 'featureSets/update',
  featureSetsChanged: 'featureSets/changed',
  pushEvent: 'push/event',
  beforeInference: 'context/beforeInference',
  afterInference: 'context/afterInference',
  inferenceRequest: 'inference/request',
  inferenceChunk: 'inference/chunk',
  modelInfo: 'model/info',
  scopeElevate: 'scope/elevate',
  stateRollback: 'state/rollback',
  channelsRegister: 'channels/register',
  channelsChanged: 'channels/changed',
  channelsList: 'channels/list',
  channelsOpen: 'channels/open',
  channelsClose: 'channels/close',
  channelsPublish: 'channels/publish',
  channelsIncoming: 'channels/incoming',
  channelsOutgoingChunk: 'channels/outgoing/chunk',
  channelsOutgoingComplete: 'channels/outgoing/complete',
} as const;

/** The envelope of a message `method`, params left loose: handlers check them. */
export function messageOf<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.looseObject({}).optional() });
}

/** Any result object: the host's answers are read field by field. */
export const AnyResult = z.looseObject({});

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function textResult(text: string, extra: Json = {}) {
  return { content: [{ type: 'text' as const, text }], ...extra };
}
