/** The MCPL 0.4.1 host (MCP Live): feature sets, scopes, state, push events, hooks, inference, channels. */
export { McplHost, type McplHostDeps, type McplServer } from './mcplHost';
export { hostMcplCapability, parseServerMcpl, type ServerMcpl } from './capabilities';
export { type FeatureSetView, featureSetMatches } from './featureSets';
export type { CheckpointNode, FeatureSetState } from './checkpoints';
export type { PushEvent, PushAnswer, PushDelivery } from './pushEvents';
export type { ChannelMessage, ChannelView } from './channelMessages';
export { McplErrorCodes, McplMethods, type ChannelDescriptor, type ContentBlock } from './protocol';
export type { ShownInjection } from './contextHooks';
