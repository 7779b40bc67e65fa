/**
 * `mgp metrics`: the metrics of the kernel of an editor open on the folder (the person turned them
 * on with the setting `mgp.metrics.enabled`), read over the editor's local socket: printed once, or
 * served at `/metrics` on 127.0.0.1 to a printed token for Prometheus to scrape.
 */
import { homedir } from 'node:os';
import { findEditor, listenForMetrics, readEditorMetrics, stateDirectory } from '../kernel';
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { CONFIG_FLAGS, configOptions, type ConfigOptions, workspaceFolderOf } from './options';
import { stopSignal } from './stopSignal';

export const METRICS_FLAGS = { http: { type: 'string', value: 'PORT' }, ...CONFIG_FLAGS } as const;

export const METRICS_USAGE = `Usage:
  mgp metrics [--cwd DIR]               print the metrics of the editor's kernel on DIR (default:
                                        the current folder), in Prometheus's text format
  mgp metrics --http PORT [--cwd DIR]   serve them at http://127.0.0.1:PORT/metrics to the printed
                                        bearer token, each scrape read afresh, until Ctrl+C
  The editor must be open on the folder with the setting mgp.metrics.enabled turned on.
  mgp serve --http PORT --metrics serves the metrics of a gateway's own kernel.`;

export interface MetricsOptions extends ConfigOptions {
  httpPort?: number;
}

export function metricsOptions({
  values,
  positionals,
}: CommandLine<typeof METRICS_FLAGS>): MetricsOptions {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const options = configOptions(values);
  if (values.http === undefined) return options;
  const port = Number(values.http);
  if (!/^\d+$/.test(values.http) || port > 65535)
    throw new UsageError('--http takes a port number (0 for any free port)');
  return { ...options, httpPort: port };
}

export async function runMetrics(options: MetricsOptions, io: Io): Promise<number> {
  const folder = workspaceFolderOf(options);
  const stateDir = stateDirectory({ workspaceFolder: folder, env: process.env, home: homedir() });
  const read = async () => {
    const editor = await findEditor(stateDir);
    if (!editor) throw new Error(`no editor is open on ${folder}`);
    return readEditorMetrics(editor);
  };
  if (options.httpPort === undefined) {
    try {
      io.out((await read()).body.trimEnd());
      return 0;
    } catch (error) {
      io.err(`mgp metrics: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
  }
  const listener = await listenForMetrics(options.httpPort, read);
  io.out(`Metrics: ${listener.url}`);
  io.out(`Metrics token: ${listener.token}`);
  await stopSignal();
  await listener.close();
  return 0;
}
