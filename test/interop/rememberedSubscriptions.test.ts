import { strict as assert } from 'node:assert';
import {
  RememberedSubscriptions,
  type SubscriptionKey,
} from '../../client/src/kernel/lifecycle/rememberedSubscriptions';
import type { Kernel } from '../../client/src/kernel/kernel';
import {
  eventually,
  everythingServer,
  fixtureServer,
  node,
  startKernel,
  TestKernel,
} from './support/kernelHarness';

const everything = `[[servers]]\nid = "everything"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\n`;
const paginated = `[[servers]]\nid = "pages"\ncommand = ${node}\nargs = [${fixtureServer('paginated.js')}]\n`;

/** A store as a window's workspace storage: what was saved is what the next window loads. */
class SavedKeys {
  saved: SubscriptionKey[] = [];
  constructor(initial: SubscriptionKey[] = []) {
    this.saved = initial;
  }
  load = () => this.saved;
  save = (keys: readonly SubscriptionKey[]) => {
    this.saved = [...keys];
    return Promise.resolve();
  };
}

/** The methods the kernel sends to server-everything, and the updates it receives. */
function observe(kernel: Kernel): { sent: string[]; updates: string[] } {
  const seen = { sent: [] as string[], updates: [] as string[] };
  kernel.manager.bus.on('trace', (line) => {
    if (line.direction === 'send' && 'method' in line.message) seen.sent.push(line.message.method);
  });
  kernel.manager.bus.on('resourceUpdated', (u) => seen.updates.push(u.uri));
  return seen;
}

/** server-everything sends updates of subscribed resources only after this tool was called. */
async function startUpdates(kernel: Kernel): Promise<void> {
  await kernel.call({ serverId: 'everything', toolName: 'toggle-subscriber-updates', args: {} });
}

describe('remembered resource subscriptions (server-everything)', function () {
  let t: TestKernel | undefined;
  let subscriptions: RememberedSubscriptions | undefined;
  afterEach(async () => {
    subscriptions?.dispose();
    await t?.dispose();
    [t, subscriptions] = [undefined, undefined];
  });

  it('subscribe: resources/subscribe, updates arrive, remembered; unsubscribe lets go', async () => {
    const store = new SavedKeys();
    let seen = { sent: [] as string[], updates: [] as string[] };
    t = await startKernel(everything, {
      trace: () => true,
      configure: (kernel) => (seen = observe(kernel)),
    });
    subscriptions = new RememberedSubscriptions(t.kernel.manager, store);
    const uri = t.kernel.manager.get('everything').resources[0].uri;
    assert.equal(subscriptions.canSubscribe('everything'), true);
    let changes = 0;
    subscriptions.onChange(() => changes++);
    await subscriptions.subscribe('everything', uri);
    assert.deepEqual(store.saved, [{ serverId: 'everything', uri }]);
    assert.equal(subscriptions.isSubscribed('everything', uri), true);
    assert.equal(seen.sent.filter((m) => m === 'resources/subscribe').length, 1);
    await startUpdates(t.kernel);
    await eventually(() => seen.updates.includes(uri), 'a notifications/resources/updated');
    await subscriptions.unsubscribe('everything', uri);
    assert.deepEqual(store.saved, []);
    assert.equal(subscriptions.isSubscribed('everything', uri), false);
    assert.equal(seen.sent.filter((m) => m === 'resources/unsubscribe').length, 1);
    assert.deepEqual(t.kernel.manager.get('everything').subscribedUris, []);
    assert.equal(changes, 2);
  });

  it('a reconnected server is subscribed again and its updates arrive', async () => {
    let seen = { sent: [] as string[], updates: [] as string[] };
    t = await startKernel(everything, {
      trace: () => true,
      configure: (kernel) => (seen = observe(kernel)),
    });
    subscriptions = new RememberedSubscriptions(t.kernel.manager, new SavedKeys());
    const uri = t.kernel.manager.get('everything').resources[0].uri;
    await subscriptions.subscribe('everything', uri);
    await t.kernel.manager.restart('everything');
    assert.equal(t.kernel.manager.get('everything').state, 'connected');
    assert.equal(seen.sent.filter((m) => m === 'resources/subscribe').length, 2);
    seen.updates.length = 0;
    // The new process starts without updates: a fresh toggle turns them on for it.
    await startUpdates(t.kernel);
    await eventually(() => seen.updates.includes(uri), 'an update after the reconnect');
    assert.equal(subscriptions.isSubscribed('everything', uri), true);
  });

  it('a new window subscribes what the last one remembered when the server connects', async () => {
    const uri = 'demo://resource/dynamic/text/2';
    const store = new SavedKeys([{ serverId: 'everything', uri }]);
    let seen = { sent: [] as string[], updates: [] as string[] };
    t = await startKernel(everything, {
      trace: () => true,
      configure: (kernel) => {
        seen = observe(kernel);
        subscriptions = new RememberedSubscriptions(kernel.manager, store);
      },
    });
    await eventually(
      () => t?.kernel.manager.get('everything').subscribedUris.includes(uri) ?? false,
      'the remembered subscription taken',
    );
    assert.equal(seen.sent.filter((m) => m === 'resources/subscribe').length, 1);
    await startUpdates(t.kernel);
    await eventually(() => seen.updates.includes(uri), 'an update of the remembered resource');
  });

  it('a server without resources.subscribe is not offered it, and a subscribe is refused', async () => {
    t = await startKernel(paginated);
    const store = new SavedKeys();
    subscriptions = new RememberedSubscriptions(t.kernel.manager, store);
    assert.equal(subscriptions.canSubscribe('pages'), false);
    const uri = t.kernel.manager.get('pages').resources[0].uri;
    await assert.rejects(
      subscriptions.subscribe('pages', uri),
      /does not offer resource subscriptions/,
    );
    assert.deepEqual(store.saved, []);
    assert.equal(subscriptions.isSubscribed('pages', uri), false);
  });
});
