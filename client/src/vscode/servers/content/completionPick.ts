/**
 * Asking for a prompt's argument or a template's variable in a quick pick fed, as the person types, by
 * the server's completion/complete (MCP, Utilities: Completion). What is typed is always a choice:
 * suggestions help, they never limit. A server without `completions` is not asked.
 */
import type { CompleteRequest } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import { oneLine } from '@shared/untrustedText';
import type { Kernel } from '../../../kernel';

export interface CompletedValue {
  serverId: string;
  ref: CompleteRequest['params']['ref'];
  name: string;
  /** Shown as the quick pick's title, e.g. "completable-prompt: department (1/2)". */
  title: string;
  description?: string;
  required: boolean;
  /** The values already chosen, sent as the completion's context. */
  chosen: Record<string, string>;
}

interface ValueItem extends vscode.QuickPickItem {
  value: string;
}

const TYPED = 'as typed';

/** The value chosen, '' for an optional one left empty, undefined when the person cancelled. */
export function askWithCompletion(
  kernel: Kernel,
  ask: CompletedValue,
): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<ValueItem>();
  pick.title = ask.title;
  pick.placeholder = ask.description
    ? `${oneLine(ask.description)}${ask.required ? '' : ' (optional)'}`
    : ask.required
      ? `${ask.name} (required)`
      : `${ask.name} (optional)`;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = false;
  let asked = 0;
  const show = (typed: string, suggestions: string[]) => {
    const items: ValueItem[] = suggestions.map((value) => ({ label: oneLine(value), value }));
    // What is typed stays a choice of its own, first unless the server suggests exactly it.
    if (typed && !suggestions.includes(typed))
      items.unshift({ label: oneLine(typed), description: TYPED, value: typed, alwaysShow: true });
    for (const item of items) item.alwaysShow = true;
    pick.items = items;
  };
  const complete = async (typed: string) => {
    const mine = ++asked;
    show(typed, []);
    pick.busy = true;
    try {
      const completion = await kernel.complete(ask.serverId, {
        ref: ask.ref,
        argument: { name: ask.name, value: typed },
        ...(Object.keys(ask.chosen).length ? { context: { arguments: ask.chosen } } : {}),
      });
      // A slower answer to an earlier keystroke must not replace a newer one.
      if (mine === asked) show(typed, completion.values);
    } catch {
      // Suggestions are a help: without them the typed value still goes.
    } finally {
      if (mine === asked) pick.busy = false;
    }
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((typed) => void complete(typed));
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.value ?? pick.value;
      if (!value && ask.required) {
        pick.title = `${ask.title} — ${ask.name} is required`;
        return;
      }
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    void complete('');
  });
}
