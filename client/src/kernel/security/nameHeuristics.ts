/**
 * Risk read from a tool's name (MGP §17.2: kernels act on tool names when servers declare nothing).
 * Only ever raises a risk: a name with no telling word has no opinion, and "safe-sounding" words are
 * not trusted to lower anything.
 */
import type { RiskLevel } from '../domain/security';

const DANGEROUS = new Set([
  'delete',
  'remove',
  'rm',
  'rmdir',
  'drop',
  'destroy',
  'kill',
  'terminate',
  'exec',
  'execute',
  'shell',
  'bash',
  'sh',
  'powershell',
  'cmd',
  'command',
  'eval',
  'format',
  'wipe',
  'purge',
  'truncate',
  'shutdown',
  'reboot',
  'uninstall',
  'sudo',
  'chmod',
  'chown',
  'erase',
  'overwrite',
  'spawn',
  'run_command',
  'run_code',
  'deploy',
]);

const MODERATE = new Set([
  'write',
  'create',
  'update',
  'upload',
  'send',
  'post',
  'put',
  'patch',
  'move',
  'rename',
  'edit',
  'modify',
  'insert',
  'save',
  'publish',
  'push',
  'commit',
  'merge',
  'append',
  'replace',
  'install',
  'store',
  'set',
  'mkdir',
  'copy',
  'email',
  'notify',
  'invite',
  'archive',
  'transfer',
  'pay',
  'book',
  'schedule',
  'submit',
]);

/** `createFile`, `create-file`, `create_file`, `files.create` → ['create', 'file', …] in lower case. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

export function riskFromName(name: string): RiskLevel | undefined {
  const words = nameWords(name);
  const pairs = words.slice(1).map((word, i) => `${words[i]}_${word}`);
  if (words.some((w) => DANGEROUS.has(w)) || pairs.some((p) => DANGEROUS.has(p)))
    return 'dangerous';
  if (words.some((w) => MODERATE.has(w))) return 'moderate';
  return undefined;
}
