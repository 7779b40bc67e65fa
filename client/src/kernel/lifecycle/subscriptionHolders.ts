/**
 * Resource subscriptions with their holders (the editor, gateway clients): the server is asked once,
 * on the first holder; the subscription is kept while any holder wants it (and renewed after a
 * reconnect).
 */
export class SubscriptionHolders {
  /** Subscribed URIs and how many holders want each. */
  private readonly holders = new Map<string, number>();

  get uris(): readonly string[] {
    return [...this.holders.keys()];
  }

  /** resources/subscribe for one more holder: `subscribe` runs on the first only. */
  async add(uri: string, subscribe: (uri: string) => Promise<unknown>): Promise<void> {
    const holders = this.holders.get(uri) ?? 0;
    if (holders === 0) await subscribe(uri);
    this.holders.set(uri, holders + 1);
  }

  /** One holder less; `unsubscribe` runs when it was the last. */
  async remove(uri: string, unsubscribe: (uri: string) => Promise<unknown>): Promise<void> {
    const holders = this.holders.get(uri) ?? 0;
    if (holders > 1) {
      this.holders.set(uri, holders - 1);
      return;
    }
    this.holders.delete(uri);
    if (holders === 1) await unsubscribe(uri);
  }

  /** After a reconnect: every URI subscribed again, one by one; a failure is told, not thrown. */
  async renew(
    subscribe: (uri: string) => Promise<unknown>,
    failed: (uri: string, error: unknown) => void,
  ): Promise<void> {
    for (const uri of this.uris) await subscribe(uri).catch((error: unknown) => failed(uri, error));
  }
}
