/**
 * The model endpoint's API key in secret storage, bound to the origin it was entered for
 * (kernel/llm/endpointKey.ts). A request to another origin does not get it: the person is asked
 * for a key for the new origin instead. A key stored before binding is sent only after they confirm
 * it belongs to the endpoint now configured.
 */
import * as vscode from 'vscode';
import { endpointOrigin, judgeStoredKey, parseStoredKey, storedKeyText } from '../../kernel';
import type { SecretStore } from '../host/secrets';

export const MODEL_KEY_SECRET = 'mgp.models.openaiCompatible.key';

export class ModelKeys {
  /** One question per origin at a time: requests made meanwhile wait for its answer. */
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(private readonly secrets: SecretStore) {}

  /** Stores a key for the endpoint at `url` (an empty key: none for that origin). */
  async store(url: string, key: string): Promise<void> {
    await this.secrets.storeRaw(MODEL_KEY_SECRET, storedKeyText(url, key));
  }

  /** The key to send to `url`; asks the person when the stored one is not bound to its origin. */
  readonly keyFor = async (url: string): Promise<string | undefined> => {
    const decision = judgeStoredKey(
      parseStoredKey(await this.secrets.getRaw(MODEL_KEY_SECRET)),
      url,
    );
    if (decision.kind === 'send') return decision.key;
    const origin = endpointOrigin(url);
    let question = this.asking.get(origin);
    if (!question) {
      question = this.ask(url, decision).finally(() => this.asking.delete(origin));
      this.asking.set(origin, question);
    }
    return question;
  };

  private async ask(
    url: string,
    decision: Exclude<ReturnType<typeof judgeStoredKey>, { kind: 'send' }>,
  ): Promise<string | undefined> {
    const { origin } = decision;
    const enter = `Enter a Key for ${origin}`;
    const send = `Send It to ${origin}`;
    const choice =
      decision.kind === 'other-origin'
        ? await vscode.window.showWarningMessage(
            `The model API key was entered for ${decision.boundTo}, and the endpoint is now ${origin}.`,
            {
              modal: true,
              detail: `MGP Kernel sends a key only to the address it was entered for. Enter a key for ${origin} (or none) to use this endpoint.`,
            },
            enter,
          )
        : await vscode.window.showWarningMessage(
            `Send the stored model API key to ${origin}?`,
            {
              modal: true,
              detail: `It was stored before MGP Kernel bound keys to the address they were entered for. Send it only if you entered it for ${origin}; from now on it goes there only.`,
            },
            send,
            enter,
          );
    if (choice === send && decision.kind === 'unbound') {
      await this.store(url, decision.key);
      return decision.key;
    }
    if (choice === enter) {
      const key = await vscode.window.showInputBox({
        title: `API key for ${origin}`,
        prompt: 'Kept in secret storage and sent only to this address; leave empty for none',
        password: true,
        ignoreFocusOut: true,
      });
      if (key !== undefined) {
        await this.store(url, key);
        return key || undefined;
      }
    }
    throw new Error(
      decision.kind === 'other-origin'
        ? `the model API key was entered for ${decision.boundTo}, not ${origin}: run "MGP: Configure Model Endpoint" to enter one for ${origin}`
        : `the stored model API key is not confirmed for ${origin}: run "MGP: Configure Model Endpoint"`,
    );
  }
}
