// The command line both conformance runners take: `--scenario NAME` and `--suite-version VERSION`
// (each repeatable; every installed suite version by default) and `--keep DIR`.
import { parseArgs } from 'node:util';

export function runnerOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string', multiple: true, default: [] },
      'suite-version': { type: 'string', multiple: true, default: [] },
      keep: { type: 'string' },
    },
    strict: true,
  });
  return { only: values.scenario, versions: values['suite-version'], keep: values.keep };
}

/**
 * Runs a runner's preparation (`prepare()`: the suites, baseline.yml, the scenario lists); on an
 * error (an unknown version or scenario, a broken baseline.yml) prints it and the summary line of a
 * failed step, and exits 1.
 */
export async function preparedOrExit(side, prepare) {
  try {
    return await prepare();
  } catch (error) {
    console.log(`✘ ${error instanceof Error ? error.message : String(error)}`);
    console.log(`conformance (${side}): 0 passed, 1 failed`);
    process.exit(1);
  }
}
