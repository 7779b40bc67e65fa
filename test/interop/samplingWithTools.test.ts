import { strict as assert } from 'node:assert';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import type { MediaKind } from '../../client/src/kernel/llm/chatModel';
import {
  fixtureServer,
  node,
  startKernel,
  startScriptedModel,
  TestKernel,
  textOf,
} from './support/kernelHarness';

// An SDK server that asks its client things (test/fixtures/servers/client-features.js): sampling
// with tools over two turns, an image, requests it withdraws, and an elicitation of every enum form.
const TOML = `[[servers]]\nid = "asks"\ncommand = ${node}\nargs = [${fixtureServer('client-features.js')}]\napproved_tools = ["weather_agent", "describe_image", "withdrawn_sampling", "withdrawn_elicitation", "choose", "ask_as_task"]\n`;

type Model = Awaited<ReturnType<typeof startScriptedModel>>;
/** A chat completions request as the scripted model received it (JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sent = Record<string, any>;

async function kernelWith(model: Model, inputs?: MediaKind[]): Promise<TestKernel> {
  return startKernel(TOML, {
    configure: (kernel) =>
      kernel.models.setProviders([
        new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted', inputs }),
      ]),
  });
}

async function callText(t: TestKernel, toolName: string, args: Record<string, unknown> = {}) {
  const outcome = await t.kernel.call({ serverId: 'asks', toolName, args });
  return textOf(outcome.result);
}

describe('sampling with tools, review and withdrawal, elicitation enums (an SDK server)', function () {
  let t: TestKernel | undefined;
  let model: Model | undefined;
  afterEach(async () => {
    await t?.dispose();
    await model?.close();
    t = model = undefined;
  });

  it('offers the tools to the model, returns its tool call as tool_use, then sends the tool result back', async () => {
    model = await startScriptedModel({
      turns: [
        { tool_calls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { content: 'It is 22 degrees and sunny in Oslo.' },
      ],
    });
    t = await kernelWith(model);
    const answer = JSON.parse(await callText(t, 'weather_agent', { city: 'Oslo' }));
    assert.equal(answer.first.stopReason, 'toolUse');
    assert.deepEqual(answer.first.content, [
      { type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    assert.equal(answer.final.content.text, 'It is 22 degrees and sunny in Oslo.');
    const [first, second] = model.requests as Sent[];
    assert.equal(first.tools[0].function.name, 'get_weather');
    assert.equal(first.tool_choice, 'auto');
    assert.deepEqual(
      second.messages.map((m: { role: string }) => m.role),
      ['user', 'assistant', 'tool'],
    );
    assert.equal(second.messages[1].tool_calls[0].id, 'call_w');
    assert.deepEqual(second.messages[2], {
      role: 'tool',
      tool_call_id: 'call_w',
      content: 'Oslo: 22 degrees, sunny',
    });
    assert.equal(t.operator.count('sampling'), 2, 'each request reviewed');
    assert.equal(t.operator.count('completion'), 2, 'each answer reviewed');
  });

  it("the operator's edit of the answer is what the server gets; a declined answer is an error to it", async () => {
    model = await startScriptedModel({ turns: [{ content: 'Sunny.', repeat: true }] });
    t = await kernelWith(model);
    t.operator.completionAction = { edit: 'Cloudy, says the operator.' };
    const edited = JSON.parse(await callText(t, 'weather_agent', { city: 'Rome' }));
    assert.equal(edited.first.content.text, 'Cloudy, says the operator.');
    t.operator.completionAction = 'reject';
    assert.match(
      await callText(t, 'weather_agent', { city: 'Rome' }),
      /declined the model's answer/,
    );
    const audit = await t.ofType('dev.mgp-kernel.sampling');
    assert.deepEqual(
      audit.map((r) => r.result),
      ['SUCCESS', 'REJECTED'],
    );
  });

  it('an image goes to a model that takes images, and is refused for one that does not', async () => {
    model = await startScriptedModel({ turns: [{ content: 'A red pixel.', repeat: true }] });
    t = await kernelWith(model);
    // The server's SDK puts "MCP error -32602: " before the words it gets, once.
    assert.match(
      await callText(t, 'describe_image'),
      /^error -32602: MCP error -32602: the model .+ does not take images; the request was not sent$/,
    );
    assert.equal(model.requests.length, 0, 'nothing was sent');
    assert.equal(t.operator.count('sampling'), 0, 'nobody is asked to review what no model takes');
    await t.dispose();
    t = await kernelWith(model, ['image']);
    assert.match(await callText(t, 'describe_image'), /A red pixel/);
    const content = (model.requests[0] as Sent).messages[0].content;
    assert.equal(content[1].type, 'image_url');
    assert.match(content[1].image_url.url, /^data:image\/png;base64,iVBOR/);
  });

  it("a server's withdrawal closes the open sampling review and elicitation", async () => {
    model = await startScriptedModel({ turns: [{ content: 'too late', repeat: true }] });
    t = await kernelWith(model);
    t.operator.samplingAction = 'wait';
    assert.match(await callText(t, 'withdrawn_sampling'), /withdrawn/);
    t.operator.elicitWait = true;
    assert.match(await callText(t, 'withdrawn_elicitation'), /withdrawn/);
    assert.equal(t.operator.count('withdrawn'), 2, 'both questions were told');
    assert.equal(model.requests.length, 0);
  });

  it('a sampling or elicitation task that fails keeps its error for tasks/result', async () => {
    model = await startScriptedModel({ turns: [{ content: 'Hi.', repeat: true }] });
    t = await kernelWith(model);
    const done = JSON.parse(await callText(t, 'ask_as_task', { kind: 'sampling' }));
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.result.content.text, 'Hi.');

    t.operator.samplingAction = 'reject';
    const rejected = JSON.parse(await callText(t, 'ask_as_task', { kind: 'sampling' }));
    assert.equal(rejected.created, 'working');
    assert.equal(rejected.status, 'failed', JSON.stringify(rejected));
    // The error a plain sampling/createMessage would have answered: its code and its message.
    assert.equal(rejected.error?.code, -1, JSON.stringify(rejected));
    assert.match(rejected.error.message, /the user rejected the sampling request/);
    assert.match(rejected.statusMessage, /the user rejected the sampling request/);

    t.operator.elicitContent = { name: 42 };
    const invalid = JSON.parse(await callText(t, 'ask_as_task', { kind: 'elicitation' }));
    assert.equal(invalid.status, 'failed', JSON.stringify(invalid));
    assert.equal(invalid.error?.code, ErrorCode.InvalidParams, JSON.stringify(invalid));
    assert.match(invalid.error.message, /name/);
  });

  it('an elicitation with every enum form: the answer is checked, defaults filled in', async () => {
    model = await startScriptedModel({ turns: [] });
    t = await kernelWith(model);
    t.operator.elicitContent = { colour: '#00f', toppings: ['olives', 'basil'], extras: ['fork'] };
    const answer = JSON.parse(await callText(t, 'choose'));
    assert.deepEqual(answer, {
      action: 'accept',
      content: {
        size: 'medium',
        note: 'none',
        count: 2,
        gift: true,
        colour: '#00f',
        toppings: ['olives', 'basil'],
        extras: ['fork'],
      },
    });
    t.operator.elicitContent = { colour: '#00f', toppings: ['olives', 'basil', 'cheese'] };
    assert.match(await callText(t, 'choose'), /maxItems|must NOT have more than 2 items/);
  });
});
