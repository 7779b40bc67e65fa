/**
 * Every part of the editor shell, each a folder that registers what a person sees of it (its
 * commands, views and panels) against the window's host. ARCHITECTURE.md has the table.
 */
import { registerAbout } from './about/registerAbout';
import { registerAgents } from './agents/registerAgents';
import { registerApprovals } from './approvals/registerApprovals';
import { registerAuditTrail } from './auditTrail/registerAuditTrail';
import { registerChannels } from './channels/registerChannels';
import { registerChat } from './chat/chatParticipant';
import { registerCheckpoints } from './checkpoints/checkpointsView';
import { registerConfigFiles } from './configFiles/configCommands';
import { registerDiscovery } from './discovery/registerDiscovery';
import { registerEvents } from './events/registerEvents';
import { registerGateway } from './gateway/editorGateway';
import type { Registration } from './host/editorHost';
import { registerLanguageModels } from './languageModels/registerLanguageModels';
import { registerLanguageModelTools } from './languageModelTools/languageModelTools';
import { registerRunTool } from './runTool/registerRunTool';
import { registerServerDetail } from './serverDetail/serverDetailPanel';
import { registerServers } from './servers/registerServers';
import { registerStreams } from './streams/registerStreams';
import { registerTasks } from './tasks/tasksView';
import { registerValidate } from './validate/registerValidate';

export const REGISTRATIONS: readonly Registration[] = [
  registerGateway,
  registerServers,
  registerServerDetail,
  registerValidate,
  registerConfigFiles,
  registerRunTool,
  registerDiscovery,
  registerStreams,
  registerTasks,
  registerAgents,
  registerApprovals,
  registerAuditTrail,
  registerEvents,
  registerCheckpoints,
  registerChannels,
  registerChat,
  registerLanguageModelTools,
  registerLanguageModels,
  registerAbout,
];
