/** What the kernel's A2A card offers: one skill per connected server, its tools named, bounded. */
import { oneLine } from '@shared/untrustedText';
import type { Kernel } from '../../kernel';
import type { A2aSkillSummary } from './a2aFront';

export function serverSkills(kernel: Kernel): A2aSkillSummary[] {
  return kernel.manager
    .list()
    .filter((server) => server.state === 'connected' && !server.config.a2a)
    .map((server) => {
      const names = kernel.offeredTools(server).map((tool) => oneLine(tool.name));
      const listed = names.slice(0, 12).join(', ') + (names.length > 12 ? ', …' : '');
      return {
        id: server.id,
        name: server.id,
        description: `${names.length} tool(s) of the server ${oneLine(server.id)}: ${listed}`.slice(
          0,
          500,
        ),
      };
    });
}
