// The command line both conformance runners take: `--scenario NAME` (repeatable) and `--keep DIR`.
import { parseArgs } from 'node:util';

export function runnerOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string', multiple: true, default: [] },
      keep: { type: 'string' },
    },
    strict: true,
  });
  return { only: values.scenario, keep: values.keep };
}
