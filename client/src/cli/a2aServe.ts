/**
 * `mgp serve --a2a PORT [--a2a-host HOST]`: the kernel as an A2A server (gateway/a2a/a2aFront.ts).
 * Its card names the agent and summarises what the connected servers offer; a task runs the kernel's
 * agent loop on the model of MGP_MODEL_URL under `agent.a2a.peer` (a `[[a2a.peers]]` token: that peer's
 * own `agent.a2a.<name>`), with nobody to ask: a call that
 * needs an approval is refused by policy. The token is MGP_A2A_TOKEN, or a new one, printed.
 */
import {
  A2aFront,
  isChatModel,
  environmentSecrets,
  PeerQuestions,
  resolvedPeers,
  serverSkills,
} from '../kernel';
import { startCliKernel } from './cliKernel';
import { stopSignal } from './stopSignal';
import type { Io } from './io';
import type { KernelOptions } from './options';

export async function runA2aServe(
  options: KernelOptions & { a2aPort: number; a2aHost?: string },
  io: Io,
): Promise<number> {
  // A call that needs approval asks its task's peer when that peer `approves`; else it is refused.
  const questions = new PeerQuestions();
  const cli = await startCliKernel(options, io, undefined, {
    interactive: false,
    interaction: questions.interaction((request, why) =>
      io.err(`mgp serve: a2a: ${request.serverId}/${request.toolName} refused: ${why}`),
    ),
  });
  const env = process.env;
  try {
    const { peers, missing } = await resolvedPeers(
      cli.config.a2aServe.peers,
      env,
      environmentSecrets(env),
    );
    for (const peer of missing)
      io.err(`mgp serve: a2a: peer left out, its token is missing: ${peer}`);
    const front = await A2aFront.listen({
      kernel: cli.kernel,
      model: () => cli.kernel.models.available.find(isChatModel),
      port: options.a2aPort,
      host: options.a2aHost,
      token: env.MGP_A2A_TOKEN || undefined,
      peers,
      questions,
      listenPath: cli.config.a2aServe.listenPath,
      name: env.MGP_A2A_NAME || 'MGP Kernel',
      description:
        'An agent on MGP Kernel: its tools are MCP servers, every call goes through the kernel’s access control, approvals and audit trail.',
      skills: () => serverSkills(cli.kernel),
      onLog: (message) => io.err(`mgp serve: a2a: ${message}`),
    });
    io.out(`A2A agent card: ${front.url}/.well-known/agent-card.json`);
    io.out(`A2A endpoint: ${front.endpoint}`);
    if (!env.MGP_A2A_TOKEN) io.out(`Bearer token: ${front.token}`);
    if (!cli.kernel.models.available.some(isChatModel))
      io.err('mgp serve: no model (MGP_MODEL_URL): every task sent here fails saying so');
    await stopSignal();
    await front.close();
  } finally {
    await cli.close();
  }
  return 0;
}
