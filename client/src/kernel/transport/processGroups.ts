/**
 * Every server the kernel starts leads a process group of its own, so that what it starts in turn
 * (`npx` starting node, a shell starting a binary) is stopped with it, and so that Ctrl+C in a
 * terminal reaches the kernel, which then stops its servers in order, rather than the servers
 * directly. The groups still alive when the kernel's process ends, however it ends short of
 * SIGKILL, are killed then: no server outlives the kernel, reparented to init.
 */
const live = new Set<number>();
let installed = false;

/** Whether a server gets a process group of its own: POSIX only (Windows has job objects instead). */
export const OWN_PROCESS_GROUP = process.platform !== 'win32';

/** Signals a process group, or a single process where groups are not used; false once it is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(OWN_PROCESS_GROUP ? -pid : pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Remembers a started server's group until `forget`; the first one installs the exit handler. */
export function rememberGroup(pid: number): void {
  live.add(pid);
  if (installed) return;
  installed = true;
  process.on('exit', killLiveGroups);
}

export function forgetGroup(pid: number): void {
  live.delete(pid);
}

/** The groups started and not yet stopped (their leaders' pids). */
export function liveGroups(): number[] {
  return [...live];
}

function killLiveGroups(): void {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
  live.clear();
}

/**
 * For a process that is the kernel (the CLI): SIGTERM, SIGHUP and SIGINT that nothing else handles
 * end the process as they would have, after killing the servers' groups (a signal's default action
 * ends the process without its 'exit' handlers). A command that handles SIGINT itself (stopping a
 * call) stops its servers on its way out.
 */
export function endGroupsOnSignals(): void {
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 1) return;
      killLiveGroups();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
