import { strict as assert } from 'node:assert';
import { isChannelFromWebview, MAX_POST_CHARS } from '@shared/channelMessages';
import {
  channelHeader,
  channelLines,
  SHOWN_MESSAGES,
} from '../../../client/src/vscode/channels/channelLines';
import type { ChannelMessage } from '../../../client/src/kernel/mcpl/channelMessages';

const message = (n: number, extra: Partial<ChannelMessage> = {}): ChannelMessage => ({
  channelId: 'room:general',
  messageId: `m${n}`,
  timestamp: '2026-01-01T00:00:00Z',
  content: [{ type: 'text', text: `hello ${n}` }],
  direction: 'incoming',
  conversationId: 'c1',
  author: { id: 'u_ada', name: 'Ada' },
  ...extra,
});

describe('a channel panel: lines, header and what the webview may post', () => {
  it('names authors: the server-named one for incoming, you or @mgp for outgoing', () => {
    const lines = channelLines([
      message(1),
      message(2, { direction: 'outgoing', by: 'user', author: { name: 'spoofed' } }),
      message(3, { direction: 'outgoing', by: 'agent' }),
      message(4, { author: { id: 'u_x' } }),
      message(5, {
        author: undefined,
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', mimeType: 'image/png', data: 'AA' },
          { type: 'resource', uri: 'file:///a' },
        ],
      }),
    ]);
    assert.deepEqual(
      lines.map((l) => l.author),
      ['Ada', 'you', '@mgp', 'u_x', 'someone'],
    );
    assert.equal(lines[4].text, 'see\n[image image/png]\n[resource file:///a]');
  });

  it('sends the newest messages only', () => {
    const lines = channelLines(Array.from({ length: SHOWN_MESSAGES + 5 }, (_, i) => message(i)));
    assert.equal(lines.length, SHOWN_MESSAGES);
    assert.equal(lines.at(-1)?.messageId, `m${SHOWN_MESSAGES + 4}`);
  });

  it('carries why the user may not post', () => {
    const view = {
      serverId: 's',
      descriptor: { id: 'x', type: 'room', label: 'X', direction: 'inbound' as const },
      conversationId: 'c',
      open: true,
      messageCount: 0,
      agentAttached: false,
    };
    assert.equal(channelHeader(view, 'x is inbound only').publishRefusal, 'x is inbound only');
    assert.equal('publishRefusal' in channelHeader(view), false);
  });

  it('takes from the webview only ready and a non-empty post within the limit', () => {
    assert.ok(isChannelFromWebview({ type: 'ready' }));
    assert.ok(isChannelFromWebview({ type: 'publish', text: 'hi' }));
    assert.ok(!isChannelFromWebview({ type: 'publish', text: '   ' }));
    assert.ok(!isChannelFromWebview({ type: 'publish', text: 'x'.repeat(MAX_POST_CHARS + 1) }));
    assert.ok(!isChannelFromWebview({ type: 'publish', text: 3 }));
    assert.ok(!isChannelFromWebview({ type: 'close' }));
    assert.ok(!isChannelFromWebview(null));
  });
});
