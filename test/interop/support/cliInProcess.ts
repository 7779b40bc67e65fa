import { runCli } from '../../../client/src/cli/main';

/** `mgp ARGS` run in this process: its exit code and what it printed, line by line. */
export async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}
