/**
 * The main thread's side of the model's thread (modelWorker.ts): a `ToolVectorSource` that sends
 * tools' texts to the thread and receives their vectors. The thread starts at the first request and
 * keeps the process alive only while a request waits for its answer. Without the worker's bundle (the unbundled tests)
 * there is no thread and the ranker computes vectors itself.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { TOOL_TEXT_WEIGHTS, type ToolTextWeights, type ToolVectorSource } from './modelRanker';

export const MODEL_WORKER_FILE = 'modelWorker.js';

export interface ModelWorkerSetup {
  /** Where the model file is (next to the bundles). */
  dir: string;
  weights: ToolTextWeights;
}

export interface ModelRequest {
  id: number;
  texts: Array<{ name: string; lead: string; params: string }>;
}

export type ModelReply = { id: number; vectors: Float32Array[] } | { id: number; error: string };

/** A vector source on the model's thread, or undefined when the worker's bundle is not next to this module. */
export function modelThread(dir: string = __dirname): ToolVectorSource | undefined {
  const script = join(dir, MODEL_WORKER_FILE);
  if (!existsSync(script)) return undefined;
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<
    number,
    { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }
  >();
  const fail = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
    worker = undefined;
  };
  const start = (): Worker => {
    const setup: ModelWorkerSetup = { dir, weights: { ...TOOL_TEXT_WEIGHTS } };
    const started = new Worker(script, { workerData: setup });
    started.on('message', (reply: ModelReply) => {
      const w = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0) started.unref();
      if (!w) return;
      if ('error' in reply) w.reject(new Error(reply.error));
      else w.resolve(reply.vectors);
    });
    started.on('error', fail);
    started.on('exit', () => fail(new Error('the model thread stopped')));
    return started;
  };
  return (texts) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker ??= start();
      worker.ref(); // until the answer: then idle, the thread never holds the process open
      worker.postMessage({ id, texts: [...texts] } satisfies ModelRequest);
    });
}
