/** Resolves when the process is asked to stop (Ctrl+C, or SIGTERM from a service manager). */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
}
