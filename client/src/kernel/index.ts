/**
 * The kernel's front door: what its front ends, the editor shell (client/src/vscode) and the CLI
 * (client/src/cli), may use. They import nothing else of the kernel (scripts/lint/rooms.mjs): what a
 * front end needs that is not here is a question for the kernel's API, not a deeper import.
 */

// The kernel, and what it offers and publishes.
export { Kernel, type KernelToolEntry } from './kernel';
export type { ServerManager } from './lifecycle/serverManager';
export { qualifiedToolName } from './lifecycle/serverManager';
export type { SupervisedServer } from './lifecycle/supervisedServer';
export { connectingEnds, notReadyServers, type NotReadyServer } from './lifecycle/readiness';
export { describeProgress } from './connection/connectDeadline';
export { endGroupsOnSignals } from './transport/processGroups';
export { describeIsolation, type Isolation } from './sandbox/isolation';
export { foreseeIsolation } from './sandbox/launch';
export type { KernelBus } from './lifecycle/events';
export type { LifecycleTransition, ServerState } from './domain/serverState';
export type { ListedTool } from './connection/toolResults';
export type { EffectiveSecurity } from './domain/security';
export type { NegotiatedMgp } from './mgp/negotiation';
export { KERNEL_SERVER_ID } from './domain/kernelTool';
export { RememberedSubscriptions, type SubscriptionKey } from './lifecycle/rememberedSubscriptions';
export { expandTemplate, templateVariables } from './connection/uriTemplates';
export type { EventHub, ServerEvent } from './bidirectional/eventHub';

// Tool calls: their requests and outcomes, errors, streams and tasks.
export type { ToolCallOutcome, ToolCallRequest } from './pipeline/types';
export { ArgumentChecker } from './pipeline/argumentChecker';
export { checkName, checkPhrase, type CheckName } from './pipeline/checkNames';
export { CLI_OPERATOR, EDITOR_OPERATOR } from './domain/caller';
export { KernelError, type KernelErrorCode } from './domain/errors';
export { wireErrorOf } from './mgp/mgpErrors';
export type { StreamEvents, StreamSnapshot } from './streaming/streamRegistry';
export { isTerminal, taskSupportOf, type TaskSnapshot } from './connection/toolTasks';
export type { KeptTask, TaskBoard, TaskRunRequest, TrackedTask } from './tasks/taskBoard';

// Configuration: loading, its types, summaries for people, and writing server blocks.
export { loadKernelConfig, mergeConfigFiles, parseConfigText } from './config/load';
export { readManagedPolicy } from './config/managedPolicy';
export type {
  ConfigProblem,
  ConfiguredServer,
  KernelConfig,
  ManagedPolicy,
  PolicyBlock,
} from './config/types';
export { LastValidConfig } from './config/lastValid';
export {
  displayPath,
  serverTarget,
  summarizeConfigFiles,
  summarizeServers,
  type PathContext,
} from './config/status';
export { launchFingerprint } from './config/launchFingerprint';
export { launchDetails, launchTarget, shellWord } from './config/launchText';
export { environmentSecrets, type SecretSource } from './config/interpolate';
export { invalidValue, newServerFrom, type NewServerKind } from './config/newServer';
export { appendBlocks, serverBlock, serverIdsOf, uniqueServerId } from './config/serverBlock';
export { importVscodeMcpJson, type McpJsonInput } from './config/vscodeMcpImport';

// The person's say: questions the kernel asks, approvals, permissions, access, switches.
export {
  NOBODY_TO_ASK,
  type CallbackQuestion,
  type CompletionReview,
  type InferenceQuestion,
  type Interaction,
  type PermissionAnswer,
  type PermissionRequest,
  type RegistrationRequest,
  type SampledAnswer,
  type SamplingReview,
  type ScopeQuestion,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
} from './host/interaction';
export { elicitationDefaults } from './host/elicitationDefaults';
export { inferenceDetail, inferenceTitle, scopeDetail, scopeTitle } from './host/mcplQuestionText';
export {
  answerOwnText,
  answerText,
  lastMessageText,
  requestDetail,
  requestSummary,
  toolsOffered,
  withAnswerText,
} from './host/samplingText';
export type { ApprovalsSnapshot, DecisionRecord } from './security/toolApprovals';
export type { PermissionDecision } from './security/approvalStore';
export type { AccessEntry } from './access/accessControl';
export { Switches } from './security/switches';
export {
  LAUNCH_APPROVALS_FILE,
  LaunchApprovals,
  type LaunchStanding,
} from './security/launchApprovals';

// The audit trail: opening it, reading, filtering, exporting and verifying a log.
export { openAuditTrail, type AuditTrail } from './audit/auditTrail';
export { MemoryAuditSink } from './audit/auditSink';
export { newTraceId, type AuditRecord } from './audit/auditEvent';
export { Redactor } from './audit/redact';
export { auditDirectory, stateDirectory, stateRoot } from './audit/location';
export { anchorKey, type AnchorKeyStore } from './audit/anchorSeal';
export { canonicalJson } from './audit/canonical';
export { recordLine } from './audit/chain';
export { csvField, EXPORT_FORMATS, exportRecords, type ExportFormat } from './audit/export';
export { compileFilter, type AuditFilter } from './audit/filter';
export { followRecords, readRecords, tailRecords } from './audit/reader';
export { verifyAuditLog, type VerifyReport } from './audit/verify';
export {
  linesFrom,
  readRecordAt,
  type LogPosition,
  type PositionedLine,
} from './audit/logPositions';
export {
  parseEncryptedTrace,
  TRACE_ALGORITHM,
  traceAlgorithmRefusal,
  TraceError,
  traceKey,
  type EncryptedTrace,
  type TraceKey,
} from './audit/traceEncryption';

// The team's audit trail in PostgreSQL: shipping a log, and verifying and querying the table.
export { shipAuditTrail } from './teamAudit/shipTrail';
export type { AuditShipper, ShipperStatus } from './teamAudit/auditShipper';
export { openTeamDatabase, ensureSchema, databaseProblem } from './teamAudit/database';
export { verifyTeamAudit, type TeamVerifyReport } from './teamAudit/teamVerify';
export { queryTeamAudit, type TeamQuery, type TeamRecord } from './teamAudit/teamQuery';

// Signing in to servers (OAuth) and where secrets are kept.
export { AuthorizationStore, type SecretKeyValue } from './auth/authStore';
export { Authorizations } from './auth/authorizations';
export { headlessUserAgent, systemBrowserUserAgent, type UserAgent } from './auth/userAgent';
export { FileSecrets } from './auth/fileSecrets';
export {
  KEYRING_SERVICE,
  KeyringSecrets,
  MigratingSecrets,
  type KeyringModule,
} from './auth/keyringSecrets';

// Icons servers give (MCP 2025-11-25), as the kernel judges and keeps them.
export { IconCache, iconDataUri, type CachedIcon } from './icons/iconCache';
export { iconsOf, judgeIcon, pickIcons } from './icons/iconPolicy';

// Language models: the agent loop, chat endpoints and providers.
export {
  AgentSession,
  CHAT_AGENT_ID,
  CLI_AGENT_ID,
  COPILOT_AGENT_ID,
  DEFAULT_LOOP_GUARD,
  DEFAULT_MAX_STEPS,
  cutText,
  errorRejection,
  getPromptAs,
  readResourceAs,
  type AgentObserver,
  type AgentRunRecord,
  type StartingToolCall,
  type ToolCallRecord,
} from './agent';
export { boundedInstructions } from './agent/serverInstructions';
export type {
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatTurn,
  MediaKind,
  ModelTool,
} from './llm/chatModel';
export type {
  CompletionRequest,
  CompletionResult,
  ModelDescription,
  ModelHints,
  ModelProvider,
} from './llm/modelProvider';
export type { ModelRouter } from './llm/modelRouter';
export { isChatModel } from './llm/modelRouter';
export { OpenAiCompatibleProvider } from './llm/openAiCompatible';
export { openAiChat, type OpenAiChatEndpoint } from './llm/openAiChat';
export type { EmbeddingEndpointOptions } from './llm/openAiEmbeddings';
export { endpointOrigin, judgeStoredKey, parseStoredKey, storedKeyText } from './llm/endpointKey';

// Tool discovery (MGP §16).
export {
  CATEGORY_TREE,
  discoverable,
  NO_MATCH_BELOW,
  type DiscoverResult,
  type DiscoveredTool,
  type SessionToolCache,
  type ToolIndexEntry,
} from './discovery';
export { exampleRequestSource, type ToolDiscovery } from './discovery/toolDiscovery';

// A2A: external agents (each the in-process server `a2a.<name>`), their cards and tasks.
export { A2A_SERVER_PREFIX, A2A_TOOLS, a2aServerId } from './config/a2aAgents';
export { cardAt } from './a2a/agentFetch';
export type { FetchedCard } from './a2a/card';
export type { A2aDirectory, A2aTaskRecord } from './a2a/directory';
export type {
  A2aArtifact,
  A2aDialect,
  A2aMessage,
  A2aPart,
  A2aTask,
  A2aTaskState,
  AgentCardSummary,
} from './a2a/types';
export { DIALECT_NAMES, INTERRUPTED_STATES, TERMINAL_STATES } from './a2a/types';
export { A2A_META, type A2aCallFacts } from './domain/a2aFacts';
export { resolvedPeers } from './config/a2aServe';
export type { A2aServeSettings } from './config/types';
export { A2aFront, type A2aSkillSummary } from './gateway/a2a/a2aFront';
export { serverSkills } from './gateway/a2a/serverSkills';
export { PeerQuestions } from './gateway/a2a/peerQuestions';
export { a2aAgentId } from './gateway/a2a/kernelExecutor';

// MCPL: feature sets, checkpoints, push events, context hooks, channels.
export type {
  CheckpointNode,
  ChannelMessage,
  ChannelView,
  ContentBlock,
  FeatureSetState,
  FeatureSetView,
  PushEvent,
  ShownInjection,
} from './mcpl';
export type { McplHost } from './mcpl/mcplHost';
export type { Channels } from './mcpl/channels';
export { ChannelAgents } from './mcpl/channelAgents';
export { blocksText } from './mcpl/protocol';

// The MCP draft extensions (Nov 2025): seeds, job events by phase, client resource hints.
export {
  declares,
  declaredDraftFields,
  PRNGS,
  seedRefusal,
  withSeed,
  type Prng,
} from './drafts/fields';
export { determinismOf, type Determinism, type DeterminismLevel } from './drafts/determinism';
export { PHASES, payloadSummary, type JobEvent, type Phase } from './drafts/jobEvents';
export {
  clientHintsFromEnv,
  machineHints,
  type ClientHintsChoice,
  type ClientResourceHints,
} from './drafts/resourceHints';

// The gateway: the kernel served to other MCP clients (`mgp serve`, the editor's endpoint).
export { Gateway } from './gateway/gateway';
export type { ExposeMode, GatewayMode } from './gateway/toolListing';
export type { NameStyle } from './gateway/names';
export { elicitedApprovals } from './gateway/elicitedApprovals';
export { DEFAULT_IDLE_TIMEOUT_MS, HttpFront, type EndedSession } from './gateway/http/httpFront';
export { ResourceServer } from './gateway/http/resourceServer';
export { oauthAuth } from './gateway/http/requestAuth';
export { isLoopbackAddress } from './gateway/http/listenAddress';
export { KernelMetrics } from './metrics/kernelMetrics';
export { listenForMetrics } from './metrics/metricsListener';
export { findEditor, openEditorSession, readEditorMetrics, relay } from './gateway/local/attach';
export { EditorEndpoint } from './gateway/local/editorEndpoint';

// `mgp validate` (MGP §17.8): a server's compliance by tier, over the kernel's connection code, and
// a client's, from what a probe server saw it do.
export {
  ALL_SERVER_CHECKS,
  DEFAULT_CHECK_TIMEOUT_MS,
  validateServer,
  type ValidateServerOptions,
} from './validate/validateServer';
export { describeTarget, type ValidationTarget } from './validate/target';
export {
  kernelSandbox,
  validateHostedServer,
  type HostedValidationOptions,
} from './validate/hostedValidation';
export {
  ALL_CLIENT_CHECKS,
  CLIENT_SCENARIOS,
  DEFAULT_CLIENT_TIMEOUT_MS,
  validateClient,
  type ValidateClientOptions,
} from './validate/client/validateClient';
export { clientArgv } from './validate/client/clientRun';
export {
  badgeMarkdown,
  badgeSvg,
  checkDetails,
  checkLine,
  junitXml,
  resultLine,
  tierLabel,
} from './validate/report';
export type { CheckResult, CheckStatus, CheckTier, ValidationReport } from './validate/types';
