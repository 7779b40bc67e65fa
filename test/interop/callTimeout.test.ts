import { strict as assert } from 'node:assert';
import { OpenAiCompatibleProvider } from '../../client/src/kernel/llm/openAiCompatible';
import {
  everythingServer,
  exampleServer,
  node,
  startKernel,
  startScriptedModel,
  TestKernel,
  textOf,
} from './support/kernelHarness';

/**
 * A review that outlasts the request timeout: the old timer, running since the call was sent, always
 * ran out. The timeout is long enough that only a stalled machine could use it up between the call
 * going out and the server's request coming in.
 */
const TIMEOUT_SECS = 8;
const REVIEW_MS = TIMEOUT_SECS * 1000 + 1000;

const everything = (id: string) =>
  `[[servers]]\nid = "${id}"\ncommand = ${node}\nargs = [${everythingServer}, "stdio"]\nrequest_timeout_secs = ${TIMEOUT_SECS}\n`;

const mgpExample = `[[servers]]\nid = "callbacks"\ncommand = ${node}\nargs = [${exampleServer}]\nrequest_timeout_secs = ${TIMEOUT_SECS}\n`;

describe('kernel: the request timeout counts only the time the server works', function () {
  let t: TestKernel | undefined;
  afterEach(async () => t?.dispose());

  it('a tool call outlives a sampling review, an elicitation form and an MGP callback longer than its timeout', async () => {
    const model = await startScriptedModel({
      rules: [{ match: 'haiku', reply: 'Autumn moonlight' }],
    });
    try {
      t = await startKernel(everything('sampler') + everything('asker') + mgpExample, {
        configure: (kernel) =>
          kernel.models.setProviders([
            new OpenAiCompatibleProvider({ baseUrl: model.url, model: 'scripted' }),
          ]),
      });
      const kernel = t.kernel;
      t.operator.elicitContent = { name: 'Ada Lovelace', check: true, integer: 42 };
      t.operator.callbackAnswers = ['forty-two'];
      t.operator.reviewing = () => new Promise((resolve) => setTimeout(resolve, REVIEW_MS));
      const [sampled, elicited, answered] = await Promise.all([
        kernel.call({
          serverId: 'sampler',
          toolName: 'trigger-sampling-request',
          args: { prompt: 'write a haiku', maxTokens: 50 },
        }),
        kernel.call({ serverId: 'asker', toolName: 'trigger-elicitation-request', args: {} }),
        kernel.call({
          serverId: 'callbacks',
          toolName: 'ask_user',
          args: { type: 'input', message: 'Your answer?', timeout_ms: REVIEW_MS * 10 },
        }),
      ]);
      assert.match(textOf(sampled.result), /Autumn moonlight/);
      assert.match(textOf(elicited.result), /Ada Lovelace/);
      assert.equal(t.operator.count('sampling'), 1);
      assert.deepEqual(answered.result.structuredContent, { response: 'forty-two' });
      assert.equal(t.operator.count('elicit'), 1);
      assert.equal(t.operator.count('callback:input'), 1);
    } finally {
      await model.close();
    }
  });
});
