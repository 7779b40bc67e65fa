/**
 * The example server's flags:
 * - `--port N`: Streamable HTTP at http://127.0.0.1:N/mcp (0: a free port, said on stderr); stdio
 *   without it.
 * - `--drop-after N` (HTTP): during each `research` call, after its Nth event, the server cuts the
 *   connection the call's stream runs on, as a network that drops would; the client resumes with
 *   `Last-Event-ID` and the server replays what it missed.
 * - `--redeliver` (HTTP): a replay starts with the last event the client saw, as an at-least-once
 *   server may send it: a client must drop the duplicate.
 */
export interface DraftServerOptions {
  port?: number;
  dropAfter?: number;
  redeliver: boolean;
}

function whole(flag: string, value: string | undefined): number {
  const number = Number(value);
  if (value === undefined || !Number.isSafeInteger(number) || number < 0)
    throw new Error(`${flag} takes a whole number`);
  return number;
}

export function parseOptions(argv: string[]): DraftServerOptions {
  const options: DraftServerOptions = { redeliver: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--port') options.port = whole(flag, argv[++i]);
    else if (flag === '--drop-after') options.dropAfter = whole(flag, argv[++i]);
    else if (flag === '--redeliver') options.redeliver = true;
    else throw new Error(`unknown flag ${flag}: --port N, --drop-after N, --redeliver`);
  }
  return options;
}
