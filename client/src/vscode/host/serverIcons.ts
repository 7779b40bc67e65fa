/**
 * Server-provided icons (MCP 2025-11-25 `icons`) for the Servers view and the server detail page. The
 * kernel decides which icons may be shown and keeps them as files (kernel/icons); this gives a tree row
 * its light and dark icon once the files are ready, and fires a change then. An icon not (yet) ready,
 * or refused, leaves the row its codicon.
 */
import * as vscode from 'vscode';
import {
  type CachedIcon,
  IconCache,
  iconDataUri,
  iconsOf,
  judgeIcon,
  pickIcons,
} from '../../kernel';

export interface ThemedIconFiles {
  light: CachedIcon;
  dark: CachedIcon;
}

/** How long icon results are gathered before the views are told to draw again. */
const CHANGE_DELAY_MS = 100;

export class ServerIcons implements vscode.Disposable {
  private readonly ready = new Map<string, ThemedIconFiles | null>();
  private readonly pending = new Map<string, Promise<ThemedIconFiles | undefined>>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly cache: IconCache,
    private readonly log?: (message: string) => void,
  ) {}

  /** A tree row's icon when it is ready; undefined (the codicon stays) while fetched or if refused. */
  iconPath(icons: unknown): { light: vscode.Uri; dark: vscode.Uri } | undefined {
    const files = this.readyFiles(icons);
    return files
      ? { light: vscode.Uri.file(files.light.path), dark: vscode.Uri.file(files.dark.path) }
      : undefined;
  }

  /** The icons as `data:` URIs of their checked bytes, for a webview, when they are ready. */
  dataUris(icons: unknown): { light: string; dark: string } | undefined {
    const files = this.readyFiles(icons);
    return files && { light: iconDataUri(files.light), dark: iconDataUri(files.dark) };
  }

  /** The files when ready; else starts on them, and onDidChange fires once they are. */
  private readyFiles(icons: unknown): ThemedIconFiles | undefined {
    const list = iconsOf(icons);
    if (list.length === 0) return undefined;
    const key = list.map((icon) => icon.src).join('\n');
    const files = this.ready.get(key);
    if (files === undefined) void this.load(key, icons).then(() => this.fireSoon());
    return files ?? undefined;
  }

  private load(key: string, icons: unknown): Promise<ThemedIconFiles | undefined> {
    const known = this.ready.get(key);
    if (known !== undefined) return Promise.resolve(known ?? undefined);
    let loading = this.pending.get(key);
    if (!loading) {
      loading = this.resolve(icons).then((files) => {
        this.ready.set(key, files ?? null);
        this.pending.delete(key);
        return files;
      });
      this.pending.set(key, loading);
    }
    return loading;
  }

  /** Each theme's icon; one that fails stands in for the other, both failing leave the codicon. */
  private async resolve(icons: unknown): Promise<ThemedIconFiles | undefined> {
    const list = iconsOf(icons);
    const picked = pickIcons(list);
    for (const icon of list) {
      const verdict = judgeIcon(icon);
      if (!verdict.ok) this.log?.(`server icon not shown: ${verdict.reason}`);
    }
    if (!picked) return undefined;
    const [light, dark] = await Promise.all([
      this.cache.resolve(picked.light),
      this.cache.resolve(picked.dark),
    ]);
    if (!light.ok) this.log?.(`server icon not shown: ${light.reason}`);
    if (!dark.ok && dark !== light) this.log?.(`server icon not shown: ${dark.reason}`);
    const lightIcon = light.ok ? light.icon : dark.ok ? dark.icon : undefined;
    const darkIcon = dark.ok ? dark.icon : lightIcon;
    return lightIcon && darkIcon ? { light: lightIcon, dark: darkIcon } : undefined;
  }

  private fireSoon(): void {
    if (this.changeTimer !== undefined) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      this.changed.fire();
    }, CHANGE_DELAY_MS);
  }

  dispose(): void {
    if (this.changeTimer !== undefined) clearTimeout(this.changeTimer);
    this.changed.dispose();
  }
}

/** The icon store over the extension's global storage. */
export function serverIconsFor(
  extension: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): ServerIcons {
  const dir = vscode.Uri.joinPath(extension.globalStorageUri, 'server-icons').fsPath;
  return new ServerIcons(new IconCache(dir), (message) => log.info(message));
}
