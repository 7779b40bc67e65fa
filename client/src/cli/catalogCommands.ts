/**
 * `mgp resources [list] | templates | read URI`, `mgp prompts [list] | get NAME` and `mgp complete`:
 * what servers offer besides tools. A template URI given to `read` is expanded with the `--arg`
 * values (RFC 6570); `mgp complete` asks the server for an argument's values (completion/complete).
 */
import type {
  CompleteRequest,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { oneLine } from '@shared/untrustedText';
import { expandTemplate, type Kernel, templateVariables } from '../kernel';
import { describeError } from './callCommand';
import { CliEnvironment, startCliKernel } from './cliKernel';
import { CommandLine, UsageError } from './flags';
import type { Io } from './io';
import { runListing } from './kernelCommands';
import { JSON_FLAG, KERNEL_FLAGS, KernelOptions, kernelOptions } from './options';

const ARG_FLAG = { arg: { type: 'string', value: 'NAME=VALUE', multiple: true } } as const;

export const CATALOG_FLAGS = {
  server: { type: 'string', value: 'ID' },
  ...ARG_FLAG,
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

export const COMPLETE_FLAGS = {
  server: { type: 'string', value: 'ID' },
  prompt: { type: 'string', value: 'NAME' },
  template: { type: 'string', value: 'URI_TEMPLATE' },
  ...ARG_FLAG,
  ...JSON_FLAG,
  ...KERNEL_FLAGS,
} as const;

interface CatalogBase extends KernelOptions {
  server?: string;
  json: boolean;
}

export type ResourcesOptions = CatalogBase &
  ({ verb: 'list' | 'templates' } | { verb: 'read'; uri: string; args: Record<string, string> });

export type PromptsOptions = CatalogBase &
  ({ verb: 'list' } | { verb: 'get'; name: string; args: Record<string, string> });

export interface CompleteOptions extends CatalogBase {
  server: string;
  ref: CompleteRequest['params']['ref'];
  argument: string;
  value: string;
  /** The arguments already given, for servers whose suggestions depend on them. */
  args: Record<string, string>;
}

/** `--arg NAME=VALUE`, repeated: the value may itself hold `=`. */
function argsOf(raw: string[] | undefined): Record<string, string> {
  const args: Record<string, string> = {};
  for (const pair of raw ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError(`--arg takes NAME=VALUE, not "${pair}"`);
    args[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return args;
}

function noMore(extra: string[]): void {
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
}

function base(values: CommandLine<typeof CATALOG_FLAGS>['values']): CatalogBase {
  return { ...kernelOptions(values), server: values.server, json: values.json === true };
}

export function resourcesOptions({
  values,
  positionals,
}: CommandLine<typeof CATALOG_FLAGS>): ResourcesOptions {
  const [verb = 'list', ...rest] = positionals;
  if (verb === 'read') {
    const [uri, ...extra] = rest;
    if (!uri) throw new UsageError('read takes a URI, e.g. mgp resources read demo://resource/1');
    noMore(extra);
    return { ...base(values), verb, uri, args: argsOf(values.arg) };
  }
  if (verb !== 'list' && verb !== 'templates')
    throw new UsageError(`use list, templates or read URI, not "${verb}"`);
  noMore(rest);
  if (values.arg?.length) throw new UsageError('--arg is for mgp resources read TEMPLATE');
  return { ...base(values), verb };
}

export function promptsOptions({
  values,
  positionals,
}: CommandLine<typeof CATALOG_FLAGS>): PromptsOptions {
  const [verb = 'list', ...rest] = positionals;
  if (verb === 'get') {
    const [name, ...extra] = rest;
    if (!name) throw new UsageError('get takes a prompt name, e.g. mgp prompts get greeting');
    noMore(extra);
    return { ...base(values), verb, name, args: argsOf(values.arg) };
  }
  if (verb !== 'list') throw new UsageError(`use list or get NAME, not "${verb}"`);
  noMore(rest);
  if (values.arg?.length) throw new UsageError('--arg is for mgp prompts get NAME');
  return { ...base(values), verb };
}

export function completeOptions({
  values,
  positionals,
}: CommandLine<typeof COMPLETE_FLAGS>): CompleteOptions {
  const [argument, value = '', ...extra] = positionals;
  noMore(extra);
  if (!argument || !values.server || Boolean(values.prompt) === Boolean(values.template))
    throw new UsageError(
      'give the argument, its start, --server and one of --prompt NAME or --template URI_TEMPLATE, e.g. mgp complete department S --server everything --prompt completable-prompt',
    );
  return {
    ...base(values),
    server: values.server,
    ref: values.prompt
      ? { type: 'ref/prompt', name: values.prompt }
      : { type: 'ref/resource', uri: values.template! },
    argument,
    value,
    args: argsOf(values.arg),
  };
}

/** The server that lists a URI or a template, when --server does not say. */
function ownerOf(kernel: Kernel, uri: string, server?: string): string {
  if (server) return server;
  const servers = kernel.manager.list().filter((s) => s.state === 'connected');
  const owner = servers.find(
    (s) =>
      s.resources.some((r) => r.uri === uri) ||
      s.resourceTemplates.some((t) => t.uriTemplate === uri),
  );
  if (owner) return owner.id;
  const offering = servers.filter((s) => s.resources.length || s.resourceTemplates.length);
  if (offering.length === 1) return offering[0].id;
  throw new UsageError(`no server lists ${uri}: say which with --server ID`);
}

/** A template's URI expanded with the given values; every variable must have one. */
function expanded(uri: string, args: Record<string, string>): string {
  const variables = templateVariables(uri);
  if (variables.length === 0) {
    if (Object.keys(args).length)
      throw new UsageError(`${uri} is not a template: it takes no --arg`);
    return uri;
  }
  const missing = variables.filter((name) => args[name] === undefined);
  if (missing.length)
    throw new UsageError(
      `the template needs ${missing.map((m) => `--arg ${m}=…`).join(' ')} (mgp complete ${missing[0]} --template '${uri}' --server ID suggests values)`,
    );
  const unknown = Object.keys(args).filter((name) => !variables.includes(name));
  if (unknown.length) throw new UsageError(`the template has no variable ${unknown.join(', ')}`);
  return expandTemplate(uri, args);
}

function resourceText(result: ReadResourceResult): string {
  return result.contents
    .map((content) =>
      'text' in content
        ? String(content.text)
        : `(binary content of ${content.uri}, ${content.mimeType ?? 'type not given'}, ${Math.round((String(content.blob).length * 3) / 4)} bytes; --json prints it)`,
    )
    .join('\n');
}

function promptText(result: GetPromptResult): string {
  return result.messages
    .map(({ role, content }) => {
      const body =
        content.type === 'text'
          ? content.text
          : content.type === 'resource'
            ? `(embedded resource ${content.resource.uri})`
            : `(${content.type})`;
      return `${role}: ${body}`;
    })
    .join('\n\n');
}

/** Runs `work` on a kernel with the servers the command needs; a failure is exit 1 with its reason. */
async function withKernel(
  what: string,
  options: CatalogBase,
  io: Io,
  environment: CliEnvironment | undefined,
  work: (kernel: Kernel) => Promise<void>,
): Promise<number> {
  const cli = await startCliKernel(options, io, options.server, environment);
  try {
    await work(cli.kernel);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    io.err(`mgp ${what}: ${describeError(error).message}`);
    return 1;
  } finally {
    await cli.close();
  }
}

export async function runResources(
  options: ResourcesOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  if (options.verb === 'list') return runListing('resources', options, io, environment);
  if (options.verb !== 'read')
    return withKernel('resources templates', options, io, environment, async (kernel) => {
      const templates = kernel.manager
        .list()
        .flatMap((s) => s.resourceTemplates.map((t) => ({ server: s.id, ...t })));
      if (options.json) io.out(JSON.stringify(templates, null, 2));
      else
        for (const t of templates)
          io.out(
            `${t.server}\t${oneLine(t.uriTemplate)}\t${oneLine(t.name)}${t.description ? `\t${oneLine(t.description)}` : ''}`,
          );
    });
  const { uri, args } = options;
  const target = expanded(uri, args);
  return withKernel('resources read', options, io, environment, async (kernel) => {
    const result = await kernel.readResource(ownerOf(kernel, uri, options.server), target);
    io.out(options.json ? JSON.stringify(result, null, 2) : resourceText(result));
  });
}

export async function runPrompts(
  options: PromptsOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  if (options.verb === 'list') return runListing('prompts', options, io, environment);
  const { name, args } = options;
  return withKernel('prompts get', options, io, environment, async (kernel) => {
    const owner =
      options.server ??
      kernel.manager.list().find((s) => s.prompts.some((p) => p.name === name))?.id;
    if (!owner) throw new UsageError(`no server offers a prompt "${name}": check mgp prompts`);
    const prompt = kernel.manager.get(owner).prompts.find((p) => p.name === name);
    const missing = (prompt?.arguments ?? []).filter(
      (a) => a.required && args[a.name] === undefined,
    );
    if (missing.length)
      throw new UsageError(
        `${name} needs ${missing.map((a) => `--arg ${a.name}=…`).join(' ')} (mgp complete ${missing[0].name} --prompt ${name} --server ${owner} suggests values)`,
      );
    const result = await kernel.getPrompt(owner, name, args);
    io.out(options.json ? JSON.stringify(result, null, 2) : promptText(result));
  });
}

/** `mgp complete ARGUMENT [START] --server ID --prompt NAME|--template URI [--arg NAME=VALUE]`. */
export async function runComplete(
  options: CompleteOptions,
  io: Io,
  environment?: CliEnvironment,
): Promise<number> {
  const { server, ref, argument, value, args } = options;
  return withKernel('complete', options, io, environment, async (kernel) => {
    if (!kernel.manager.get(server).liveConnection?.offersCompletion)
      io.err(`mgp complete: ${server} does not offer completion: no values to suggest`);
    const completion = await kernel.complete(server, {
      ref,
      argument: { name: argument, value },
      ...(Object.keys(args).length ? { context: { arguments: args } } : {}),
    });
    if (options.json) io.out(JSON.stringify(completion, null, 2));
    else {
      for (const suggestion of completion.values) io.out(oneLine(suggestion));
      if (completion.hasMore)
        io.err(`(${completion.total ?? 'more'} in all: type more of the value to narrow them)`);
    }
  });
}
