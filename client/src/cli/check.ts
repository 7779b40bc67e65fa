import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkConfigText } from '@shared/configCheck/checkDocument';
import type { CheckDiagnostic } from '@shared/configCheck/diagnostic';
import { managedPolicyPath } from '@shared/configFiles';
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { JSON_FLAG } from './options';

export const CHECK_FLAGS = { ...JSON_FLAG } as const;

export interface CheckOptions {
  files: string[];
  json: boolean;
}

export function checkOptions({
  values,
  positionals,
}: CommandLine<typeof CHECK_FLAGS>): CheckOptions {
  if (positionals.length === 0)
    throw new UsageError('name at least one config file, e.g. mgp check mgp.toml');
  return { files: positionals, json: values.json === true };
}

/** One line of `mgp check --json`: a stable interface, 0-based LSP positions. */
export interface CheckReportEntry {
  file: string;
  range: CheckDiagnostic['range'];
  severity: CheckDiagnostic['severity'];
  code: string;
  message: string;
}

export async function checkFiles(files: string[]): Promise<CheckReportEntry[]> {
  const entries: CheckReportEntry[] = [];
  for (const file of files) {
    const path = resolve(file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'no such file'
          : error instanceof Error
            ? error.message
            : String(error);
      entries.push({
        file: path,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 'error',
        code: 'file-unreadable',
        message: `cannot read ${file}: ${reason}`,
      });
      continue;
    }
    const managedPolicy = managedPolicyPath(process.platform, process.env);
    for (const d of checkConfigText(text, { path, managedPolicy }))
      entries.push({
        file: path,
        range: d.range,
        severity: d.severity,
        code: d.code,
        message: d.message,
      });
  }
  return entries;
}

/** `mgp check <files…> [--json]`: exit 1 when any file has an error. */
export async function runCheck({ files, json }: CheckOptions, io: Io): Promise<number> {
  const entries = await checkFiles(files);
  if (json) {
    io.out(JSON.stringify(entries, null, 2));
  } else {
    for (const e of entries)
      io.out(
        `${e.file}:${e.range.start.line + 1}:${e.range.start.character + 1}: ${e.severity}: ${e.message} [${e.code}]`,
      );
    const count = (severity: string) => entries.filter((e) => e.severity === severity).length;
    io.err(
      `${files.length} file(s) checked: ${count('error')} error(s), ${count('warning')} warning(s), ${count('information')} information`,
    );
  }
  return entries.some((e) => e.severity === 'error') ? 1 : 0;
}
