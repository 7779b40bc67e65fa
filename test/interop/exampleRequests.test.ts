import { strict as assert } from 'node:assert';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exampleRequestSource } from '../../client/src/kernel/discovery/toolDiscovery';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import {
  eventually,
  exampleServer,
  node,
  startKernel,
  startScriptedModel,
  type ScriptedModel,
  type TestKernel,
} from './support/kernelHarness';

// Example requests for discovery (doc2query): the user's model (scripted, over loopback HTTP) writes
// requests for each tool of the example server, run as a real child process; the index reads them
// beside the description, and they are kept on disk for the next kernel.

const EXAMPLE = `[[servers]]\nid = "example"\ncommand = ${node}\nargs = [${exampleServer}]\n`;
const QUERY = 'jot something down so I do not forget it';
const REQUESTS =
  'jot something down so I do not forget it\nremember this for me\nkeep a memo of the meeting';

async function ranked(k: TestKernel, query = QUERY): Promise<string[]> {
  const result = (await k.kernel.discovery.tools.call('mgp.tools.discover', {
    query,
    max_results: 5,
  })) as { tools: { tool_id: string }[] };
  return result.tools.map((t) => t.tool_id);
}

function useModel(k: TestKernel, model: ScriptedModel): void {
  k.kernel.models.setProviders([
    new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
  ]);
}

const userText = (request: ScriptedModel['requests'][number]) =>
  String(request.messages.find((m) => m.role === 'user')?.content);

describe('interop: example requests written by the model, for discovery', function () {
  let k: TestKernel | undefined;
  let model: ScriptedModel | undefined;
  afterEach(async () => {
    await k?.dispose();
    await model?.close();
    k = model = undefined;
  });

  it('is off by default: the model is sent nothing, even with one configured', async () => {
    model = await startScriptedModel({ rules: [{ match: 'write_note', reply: REQUESTS }] });
    k = await startKernel(EXAMPLE);
    useModel(k, model);
    k.kernel.discovery.resync();
    await ranked(k);
    assert.equal(model.requests.length, 0);
  });

  it('asks once per tool, indexes the answers, and a later kernel reads them from disk', async () => {
    model = await startScriptedModel({
      rules: [
        { match: 'name: write_note', reply: REQUESTS },
        { match: 'name: ', reply: '1. an unrelated request\n2. "another one"' },
      ],
    });
    k = await startKernel(EXAMPLE);
    const tools = k.kernel.manager.find('example')!.tools.length;
    const before = await ranked(k);
    assert.notEqual(before[0], 'example.write_note', `already first: ${before.join(', ')}`);

    useModel(k, model);
    k.kernel.discovery.useExampleRequests(exampleRequestSource(k.stateDir, k.kernel.models));
    await eventually(
      async () => (await ranked(k!))[0] === 'example.write_note',
      'write_note ranked first for the request the model wrote',
    );
    // The model counts a request when it arrives; the answer is on disk only once it is read.
    const dir = join(k.stateDir, 'example-requests');
    const stored = () => (existsSync(dir) ? readdirSync(dir).length : 0);
    await eventually(() => stored() === tools, 'the answer for every tool is on disk');
    const asked = model.requests.map(userText);
    const writeNote = asked.find((text) => text.includes('name: write_note'))!;
    assert.match(writeNote, /^<tool>\n[\s\S]*description: [\s\S]*\n<\/tool>$/);
    assert.equal(asked.length, tools, 'the model was asked once per tool');
    assert.equal(new Set(asked).size, tools, 'each tool asked about once');

    // A second kernel on the same state: the requests come from disk; the model is asked nothing.
    const stateDir = k.dir;
    await k.stop();
    const silent = await startScriptedModel({
      turns: [{ error: 'must not be asked', repeat: true }],
    });
    try {
      k = await startKernel(EXAMPLE, { dir: stateDir });
      useModel(k, silent);
      k.kernel.discovery.useExampleRequests(exampleRequestSource(k.stateDir, k.kernel.models));
      assert.equal((await ranked(k))[0], 'example.write_note');
      assert.equal(silent.requests.length, 0);
    } finally {
      await silent.close();
    }
  });

  it('a failing model pauses the writing after three tries, with a warning in the log', async () => {
    model = await startScriptedModel({ turns: [{ error: 'model overloaded', repeat: true }] });
    k = await startKernel(EXAMPLE);
    const warnings: string[] = [];
    k.kernel.manager.bus.on('log', (line) => {
      if (line.level === 'warning') warnings.push(line.message);
    });
    useModel(k, model);
    k.kernel.discovery.useExampleRequests(exampleRequestSource(k.stateDir, k.kernel.models));
    await eventually(
      () => warnings.some((w) => /example requests .* paused/.test(w)),
      'a warning that example requests paused',
    );
    k.kernel.discovery.resync();
    await ranked(k);
    assert.equal(model.requests.length, 3);
  });
});
