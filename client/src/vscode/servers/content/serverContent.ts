/**
 * Resources and prompts of servers as read-only documents: `mgp-resource://<server>/<name>` and
 * `mgp-prompt://<server>/<name>.md`, read through the kernel when opened (and again when the server
 * says a subscribed resource changed). The query carries what to read; the path gives the tab a
 * readable name whose extension picks the language.
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import type { Kernel } from '../../../kernel';

export const RESOURCE_SCHEME = 'mgp-resource';
export const PROMPT_SCHEME = 'mgp-prompt';

const EXTENSIONS: Record<string, string> = {
  'text/markdown': '.md',
  'application/json': '.json',
  'text/html': '.html',
  'text/css': '.css',
  'text/csv': '.csv',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'text/x-python': '.py',
  'application/yaml': '.yaml',
  'text/yaml': '.yaml',
  'application/toml': '.toml',
  'text/plain': '.txt',
};

/** A file name for the tab: the resource's name, with an extension for its type when it has none. */
function fileName(name: string, uri: string, mimeType?: string): string {
  const base = (name || uri.split(/[/?#]/).filter(Boolean).pop() || 'resource').replace(/\//g, '∕');
  if (/\.[A-Za-z0-9]{1,8}$/.test(base)) return base;
  const fromUri = /\.[A-Za-z0-9]{1,8}$/.exec(uri.split(/[?#]/)[0])?.[0];
  return `${base}${(mimeType && EXTENSIONS[mimeType.split(';')[0].trim()]) ?? fromUri ?? ''}`;
}

export function resourceDocumentUri(
  serverId: string,
  resource: { uri: string; name?: string; mimeType?: string },
): vscode.Uri {
  return vscode.Uri.from({
    scheme: RESOURCE_SCHEME,
    authority: serverId,
    path: `/${fileName(resource.name ?? '', resource.uri, resource.mimeType)}`,
    query: new URLSearchParams({ uri: resource.uri }).toString(),
  });
}

export function promptDocumentUri(
  serverId: string,
  name: string,
  args: Record<string, string>,
): vscode.Uri {
  return vscode.Uri.from({
    scheme: PROMPT_SCHEME,
    authority: serverId,
    path: `/${name.replace(/\//g, '∕')}.md`,
    query: new URLSearchParams({ name, args: JSON.stringify(args) }).toString(),
  });
}

function resourceText(result: ReadResourceResult): string {
  if (result.contents.length === 1 && 'text' in result.contents[0])
    return String(result.contents[0].text);
  return result.contents
    .map((c) =>
      'text' in c
        ? `── ${c.uri} ──\n${String(c.text)}`
        : `── ${c.uri} ──\n(binary content, ${c.mimeType ?? 'type not given'}, ${Math.round((String(c.blob).length * 3) / 4)} bytes)`,
    )
    .join('\n\n');
}

function promptText(name: string, result: GetPromptResult): string {
  const parts = result.messages.map((m) => {
    const content =
      m.content.type === 'text'
        ? m.content.text
        : m.content.type === 'resource'
          ? `*(embedded resource ${m.content.resource.uri})*`
          : `*(${m.content.type})*`;
    return `**${m.role}**\n\n${content}`;
  });
  return [`# ${name}`, ...(result.description ? [result.description] : []), ...parts].join(
    '\n\n---\n\n',
  );
}

export class ServerContentProvider
  implements vscode.TextDocumentContentProvider, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly onUpdated = ({ server_id, uri }: { server_id: string; uri: string }) => {
    for (const document of vscode.workspace.textDocuments) {
      const target = document.uri;
      if (
        target.scheme === RESOURCE_SCHEME &&
        target.authority === server_id &&
        new URLSearchParams(target.query).get('uri') === uri
      )
        this.changed.fire(target);
    }
  };

  constructor(private readonly kernel: Kernel) {
    kernel.manager.bus.on('resourceUpdated', this.onUpdated);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = new URLSearchParams(uri.query);
    try {
      if (uri.scheme === RESOURCE_SCHEME)
        return resourceText(await this.kernel.readResource(uri.authority, query.get('uri') ?? ''));
      const name = query.get('name') ?? '';
      const args = JSON.parse(query.get('args') ?? '{}') as Record<string, string>;
      return promptText(name, await this.kernel.getPrompt(uri.authority, name, args));
    } catch (error) {
      const what = uri.scheme === RESOURCE_SCHEME ? query.get('uri') : query.get('name');
      return `Could not read ${what} from "${uri.authority}": ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  dispose(): void {
    this.kernel.manager.bus.off('resourceUpdated', this.onUpdated);
    this.changed.dispose();
  }
}

export function registerServerContent(kernel: Kernel): vscode.Disposable[] {
  const provider = new ServerContentProvider(kernel);
  return [
    provider,
    vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, provider),
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, provider),
  ];
}
