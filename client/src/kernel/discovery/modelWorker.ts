/**
 * The built-in model's thread: it loads the static model and computes tools' vectors, so that
 * indexing thousands of tools does not hold the extension host's thread. Built as its own bundle
 * (`dist/modelWorker.js`, see esbuild.mjs); modelThread.ts starts it.
 */
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import { loadBuiltInModel, toolVectors, type ToolTextWeights } from './modelRanker';
import type { ModelRequest, ModelReply, ModelWorkerSetup } from './modelThread';

const port = parentPort as MessagePort;
const setup = workerData as ModelWorkerSetup;
const model = loadBuiltInModel(setup.dir);
const weights: ToolTextWeights = setup.weights;

port.on('message', (request: ModelRequest) => {
  try {
    const vectors = toolVectors(model, request.texts, weights);
    const reply: ModelReply = { id: request.id, vectors };
    port.postMessage(
      reply,
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (error) {
    port.postMessage({
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
