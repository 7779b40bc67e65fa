import { strict as assert } from 'node:assert';
import { isRunFromWebview, isRunToolFromWebview } from '@shared/toolPanelMessages';
import { isDiscoveryFromWebview } from '@shared/discoveryMessages';
import { isStreamsFromWebview } from '@shared/streamMessages';

describe('tool panel message contracts', () => {
  it('accepts the run sub-protocol and nothing malformed', () => {
    assert.equal(
      isRunFromWebview({
        type: 'validate',
        serverId: 'example',
        toolName: 'add',
        seq: 3,
        args: { a: 1 },
      }),
      true,
    );
    assert.equal(
      isRunFromWebview({
        type: 'run',
        serverId: 'example',
        toolName: 'add',
        runId: 1,
        args: {},
        stream: false,
      }),
      true,
    );
    assert.equal(isRunFromWebview({ type: 'cancelRun', runId: 1 }), true);
    assert.equal(isRunFromWebview({ type: 'showStreams' }), true);
    assert.equal(isRunFromWebview({ type: 'showStreams', streamId: 'abc' }), true);
    assert.equal(
      isRunFromWebview({
        type: 'run',
        serverId: 'example',
        toolName: 'add',
        runId: 1,
        args: [],
        stream: false,
      }),
      false,
      'arguments are an object',
    );
    assert.equal(
      isRunFromWebview({ type: 'run', serverId: 'example', toolName: 'add', runId: 1, args: {} }),
      false,
      'stream is stated',
    );
    assert.equal(
      isRunFromWebview({
        type: 'run',
        serverId: '',
        toolName: 'add',
        runId: 1,
        args: {},
        stream: true,
      }),
      false,
    );
    assert.equal(
      isRunFromWebview({
        type: 'validate',
        serverId: 'example',
        toolName: 'add',
        seq: -1,
        args: {},
      }),
      false,
    );
    assert.equal(
      isRunFromWebview({ type: 'validate', serverId: 'example', toolName: 'add', seq: 1 }),
      false,
    );
    assert.equal(isRunFromWebview({ type: 'cancelRun', runId: 1.5 }), false);
    assert.equal(isRunFromWebview(null), false);
    assert.equal(isRunToolFromWebview({ type: 'ready' }), true);
    assert.equal(isRunToolFromWebview({ type: 'pin', toolId: 'x' }), false);
  });

  it("accepts opening a result's resource_link only with its server and URI", () => {
    const link = { type: 'openResource', serverId: 'everything', uri: 'demo://resource/2' };
    assert.equal(isRunToolFromWebview(link), true);
    assert.equal(isDiscoveryFromWebview({ ...link, name: 'Text', mimeType: 'text/plain' }), true);
    assert.equal(isRunFromWebview({ ...link, serverId: '' }), false);
    assert.equal(isRunFromWebview({ type: 'openResource', serverId: 'everything' }), false);
    assert.equal(isRunFromWebview({ ...link, name: 3 }), false);
  });

  it('checks a discovery search fully: strategy, bounds, filter', () => {
    const search = {
      type: 'search',
      seq: 1,
      query: 'add numbers',
      strategy: 'keyword',
      maxResults: 10,
      filter: { risk_level_max: 'moderate', categories: ['read'], status: 'all' },
    };
    assert.equal(isDiscoveryFromWebview(search), true);
    assert.equal(isDiscoveryFromWebview({ ...search, filter: {} }), true);
    assert.equal(isDiscoveryFromWebview({ ...search, strategy: 'vector' }), false);
    assert.equal(isDiscoveryFromWebview({ ...search, maxResults: 0 }), false);
    assert.equal(isDiscoveryFromWebview({ ...search, maxResults: 51 }), false);
    assert.equal(
      isDiscoveryFromWebview({ ...search, filter: { risk_level_max: 'extreme' } }),
      false,
    );
    assert.equal(isDiscoveryFromWebview({ ...search, filter: { categories: 'read' } }), false);
    assert.equal(isDiscoveryFromWebview({ ...search, filter: { status: 'some' } }), false);
    assert.equal(isDiscoveryFromWebview({ ...search, filter: undefined }), false);
    assert.equal(isDiscoveryFromWebview({ type: 'pin', toolId: 'example.add' }), true);
    assert.equal(isDiscoveryFromWebview({ type: 'unpin', toolId: '' }), false);
    assert.equal(
      isDiscoveryFromWebview({ type: 'openRunTool', serverId: 'example', toolName: 'add' }),
      true,
    );
    assert.equal(
      isDiscoveryFromWebview({
        type: 'run',
        serverId: 'example',
        toolName: 'add',
        runId: 2,
        args: {},
        stream: true,
      }),
      true,
      'Try it speaks the run sub-protocol',
    );
    assert.equal(isDiscoveryFromWebview({ type: 'answer' }), false);
  });

  it("accepts the Streaming panel's three messages only", () => {
    assert.equal(isStreamsFromWebview({ type: 'ready' }), true);
    assert.equal(isStreamsFromWebview({ type: 'cancel', id: 'abc' }), true);
    assert.equal(isStreamsFromWebview({ type: 'openText', id: 'abc' }), true);
    assert.equal(isStreamsFromWebview({ type: 'cancel' }), false);
    assert.equal(isStreamsFromWebview({ type: 'cancel', id: 7 }), false);
    assert.equal(isStreamsFromWebview({ type: 'cancelRun', runId: 1 }), false);
    assert.equal(isStreamsFromWebview('ready'), false);
  });
});
