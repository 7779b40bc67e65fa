/**
 * How a generated tool's code runs: as the body of an async function of `args` (MGP §16.6). The
 * strict check judges this same text, so `return` and `args` mean there what they mean when it runs.
 */
export function generatedFunction(code: string): string {
  return `(async (args) => {\n${code}\n})`;
}
