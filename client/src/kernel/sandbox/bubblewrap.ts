/**
 * The bubblewrap command line that confines one server on Linux. The whole file system is mounted
 * read-only; the folders it may write are mounted again writable; /tmp, /var/tmp and /run are its
 * own (the host's sockets there, an ssh-agent's or D-Bus's, are out of reach); denied paths are
 * covered by something nobody may open. It gets new user, PID, IPC, UTS and cgroup namespaces, a
 * network namespace of its own unless it may use the network as you do, no capabilities, and no
 * way to make further user namespaces (less of the operating system's surface within its reach).
 * It dies with the kernel and has no controlling terminal; a seccomp filter (seccomp.ts) refuses the
 * system calls it has no use for.
 */
import type { NetworkAccess } from '../config/types';
import type { ExistingPath } from './paths';

export interface Confinement {
  /** Real, existing folders it may write. */
  write: string[];
  /** Real, existing paths it may not read. */
  denyRead: ExistingPath[];
  /** Real, existing paths under a hidden folder (/tmp, /run) that it must still read: its own files. */
  keepReadable: string[];
  /** Its own temporary folder on the host, mounted at /tmp. */
  tmp: string;
  /** A file no one may open, mounted over denied files. */
  unreadableFile: string;
  network: NetworkAccess;
  cwd: string;
  /** The fd (in the child) of the seccomp filter to load, when there is one for this machine. */
  seccompFd?: number;
}

/** Folders the host keeps sockets and others' temporary files in: replaced by empty ones. */
export const HIDDEN_FOLDERS = ['/tmp', '/var/tmp', '/run'];

export function bubblewrapArgs(confinement: Confinement): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(confinement.network === 'all' ? [] : ['--unshare-net']),
    '--disable-userns',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/run',
    '--tmpfs',
    '/var/tmp',
    '--bind',
    confinement.tmp,
    '/tmp',
  ];
  for (const path of confinement.keepReadable) args.push('--ro-bind', path, path);
  for (const path of confinement.write) args.push('--bind', path, path);
  for (const denied of confinement.denyRead)
    args.push(
      ...(denied.directory
        ? ['--perms', '0000', '--tmpfs', denied.path]
        : ['--ro-bind', confinement.unreadableFile, denied.path]),
    );
  args.push('--chdir', confinement.cwd, '--setenv', 'TMPDIR', '/tmp');
  if (confinement.seccompFd !== undefined) args.push('--seccomp', String(confinement.seccompFd));
  return args;
}
