import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  chatRequestOf,
  needsChatModel,
  samplingResultOf,
} from '../../../client/src/kernel/host/samplingMessages';
import {
  answerText,
  requestDetail,
  requestSummary,
  toolsOffered,
  withAnswerText,
} from '../../../client/src/kernel/host/samplingText';
import { terminalInteraction } from '../../../client/src/cli/terminalInteraction';
import { enumChoices } from '../../../shared/src/enumChoices';
import type * as FormValue from '../../../media/src/shared/formValue';
import type * as SchemaModel from '../../../media/src/shared/schemaModel';
import { browserModule } from '../toolPanels/browserModule';

const { fieldModel } = browserModule<typeof SchemaModel>('media/src/shared/schemaModel.ts');
const { assemble, initialState } = browserModule<typeof FormValue>('media/src/shared/formValue.ts');

type Params = CreateMessageRequest['params'];
const TEXT_ONLY = { label: 'scripted', inputs: [] as const };

const WEATHER = {
  name: 'get_weather',
  description: 'The weather',
  inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } } },
};

/** A second turn: the model called get_weather, the server answers with the tool's result. */
function weatherSecondTurn(): Params {
  return {
    systemPrompt: 'Be brief.',
    maxTokens: 50,
    tools: [WEATHER],
    toolChoice: { mode: 'required' },
    messages: [
      { role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'u1', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'u1',
            content: [{ type: 'text', text: '22 degrees' }],
            isError: false,
          },
        ],
      },
    ],
  } as unknown as Params;
}

describe('sampling with tools: the mappings', () => {
  it('maps tool_use to tool calls and tool_result to tool messages, in order, with the tools and choice', () => {
    const params = weatherSecondTurn();
    assert.equal(needsChatModel(params), true);
    const request = chatRequestOf(params, TEXT_ONLY);
    assert.deepEqual(request.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'u1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      },
      { role: 'tool', toolCallId: 'u1', name: 'get_weather', content: '22 degrees' },
    ]);
    assert.equal(request.toolChoice, 'required');
    assert.deepEqual(request.tools[0].name, 'get_weather');
  });

  it("the review's short form leads with the newest message (the tool's result) and names the tools", () => {
    const params = weatherSecondTurn();
    assert.deepEqual(requestSummary(params), [
      'user: [result of u1: 22 degrees]',
      'after 2 earlier messages',
    ]);
    assert.equal(toolsOffered(params), 'Tools offered (required): get_weather');
    assert.match(
      requestDetail(params),
      /^user: Weather in Oslo\?$/m,
      'the whole request, in order',
    );
    const first = { ...params, messages: params.messages.slice(0, 1) };
    assert.deepEqual(requestSummary(first), ['System prompt: Be brief.', 'user: Weather in Oslo?']);
    assert.equal(toolsOffered({ ...params, tools: undefined }), '');
  });

  it('a text-only request stays on the plain completion path', () => {
    const params = {
      maxTokens: 5,
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    } as Params;
    assert.equal(needsChatModel(params), false);
  });

  it('images go to a model that takes them and are refused, named, for one that does not', () => {
    const params = {
      maxTokens: 5,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          ],
        },
      ],
    } as Params;
    assert.throws(() => chatRequestOf(params, TEXT_ONLY), /scripted does not take images/);
    const request = chatRequestOf(params, { label: 'vision', inputs: ['image'] });
    assert.deepEqual(request.messages[0], {
      role: 'user',
      content: 'What is this?',
      media: [{ kind: 'image', data: 'AAAA', mimeType: 'image/png' }],
    });
  });

  it("the model's tool calls come back as tool_use blocks; arguments that are not an object are an error", () => {
    const result = samplingResultOf({
      text: 'Let me look.',
      toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      model: 'm',
    });
    assert.equal(result.stopReason, 'toolUse');
    assert.deepEqual(result.content, [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    assert.match(answerText(result), /calls tool get_weather with \{"city":"Oslo"\}/);
    const edited = withAnswerText(result, 'Checking.');
    assert.deepEqual(Array.isArray(edited.content) && edited.content.map((b) => b.type), [
      'text',
      'tool_use',
    ]);
    assert.throws(
      () =>
        samplingResultOf({
          text: '',
          toolCalls: [{ id: 'c', name: 'x', arguments: '[1' }],
          model: 'm',
        }),
      /not a JSON object/,
    );
  });
});

describe('elicitation enums (SEP-1330): the choices, the form, the terminal', () => {
  const schema = {
    type: 'object',
    properties: {
      size: { type: 'string', enum: ['s', 'm'], default: 'm' },
      colour: {
        type: 'string',
        oneOf: [
          { const: '#f00', title: 'Red' },
          { const: '#00f', title: 'Blue' },
        ],
      },
      legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Option A', 'Option B'] },
      toppings: {
        type: 'array',
        minItems: 1,
        maxItems: 2,
        items: {
          anyOf: [
            { const: 'cheese', title: 'Cheese' },
            { const: 'basil', title: 'Basil' },
          ],
        },
        default: ['basil'],
      },
    },
    required: ['colour'],
  };

  it('reads every enum form', () => {
    assert.deepEqual(enumChoices(schema.properties.colour), {
      values: ['#f00', '#00f'],
      labels: ['Red', 'Blue'],
      multi: false,
    });
    assert.deepEqual(enumChoices(schema.properties.legacy)?.labels, ['Option A', 'Option B']);
    assert.deepEqual(enumChoices(schema.properties.toppings), {
      values: ['cheese', 'basil'],
      labels: ['Cheese', 'Basil'],
      multi: true,
      minItems: 1,
      maxItems: 2,
    });
    assert.equal(enumChoices({ type: 'string' }), undefined);
  });

  it('the form: a titled select, a multi-select starting from its default', () => {
    const model = fieldModel(schema);
    assert.equal(model.kind, 'object');
    const fields = model.kind === 'object' ? model.fields : [];
    const colour = fields.find((f) => f.key === 'colour');
    assert.deepEqual(colour?.kind === 'enum' && colour.labels, ['Red', 'Blue']);
    const toppings = fields.find((f) => f.key === 'toppings');
    assert.equal(toppings?.kind, 'multi');
    const state = initialState(model);
    assert.deepEqual(assemble(model, state).value, {
      size: 'm',
      colour: '#f00',
      toppings: ['basil'],
    });
  });

  it('the terminal: numbered choices, several numbers for a multi-select, Enter for the default', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const terminal = terminalInteraction({ input, output });
    input.write('\n2\n\n1, 2, 1\n');
    const answer = await terminal.elicit(
      'shop',
      { mode: 'form', message: 'Order', requestedSchema: schema } as never,
      new AbortController().signal,
    );
    terminal.close();
    assert.deepEqual(answer, {
      action: 'accept',
      content: { colour: '#00f', toppings: ['cheese', 'basil'] },
    });
    assert.match(shown, /1\. Red\n\s+2\. Blue/);
    assert.match(shown, /\[m\]/, 'the default shown');
  });

  it('the terminal: a withdrawn elicitation is cancelled, and the next answer is not swallowed', async () => {
    const input = new PassThrough();
    const terminal = terminalInteraction({ input, output: new PassThrough() });
    const withdrawn = new AbortController();
    const asked = terminal.elicit(
      'shop',
      { mode: 'form', message: 'Order', requestedSchema: schema } as never,
      withdrawn.signal,
    );
    withdrawn.abort();
    assert.deepEqual(await asked, { action: 'cancel' });
    terminal.close();
  });
});
