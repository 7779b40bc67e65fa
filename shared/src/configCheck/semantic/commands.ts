import { isAbsolute, resolve } from 'node:path';
import { RuleContext } from './context';
import type { ServerView } from './servers';

/** `..` in a command is refused by the kernel (path traversal); a command that is not found is a warning. */
export function checkCommands(ctx: RuleContext, servers: ServerView[]): void {
  for (const server of servers) {
    const command = server.command;
    if (!command || command.includes('${')) continue;
    if (command.split(/[\\/]/).includes('..')) {
      ctx.report(
        server.commandPath,
        ['value'],
        'error',
        'command-traversal',
        `command "${command}" contains "..": the kernel refuses commands that climb out of their folder; give an absolute path or a name on PATH`,
      );
      continue;
    }
    const isPath = command.includes('/') || command.includes('\\');
    const found = isPath
      ? ctx.environment.fileExists(
          isAbsolute(command) ? command : resolve(ctx.environment.baseDir ?? '.', command),
        )
      : ctx.environment.commandOnPath(command);
    if (!found) {
      ctx.report(
        server.commandPath,
        ['value'],
        'warning',
        'command-not-found',
        isPath
          ? `command "${command}" does not exist`
          : `command "${command}" is not found on PATH`,
      );
    }
  }
}
