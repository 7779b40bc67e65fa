import { inlineWriter, RecordWriter, WriterHooks } from './chainWriter';
import type { RecoveredLog } from './recovery';
import type { Redactor } from './redact';
import { loadOpener, SegmentFileOpener, SegmentFileOpenerModule } from './segmentFile';
import { WorkerWriter } from './workerWriter';

export interface WriterChoice {
  dir: string;
  rotateBytes: number;
  commitDelayMs?: number;
  writer?: 'thread' | 'inline';
  openFile?: SegmentFileOpener | SegmentFileOpenerModule;
}

/**
 * The log's writer thread, or an inline writer when `choice` asks for one or the thread cannot
 * start (then `notes` says why); an explicit `thread` that cannot start fails.
 */
export async function startWriter(
  choice: WriterChoice,
  recovered: RecoveredLog,
  redactor: Redactor,
  hooks: WriterHooks,
  notes: string[],
): Promise<RecordWriter> {
  const { dir, openFile, commitDelayMs, rotateBytes } = choice;
  const inline = (): RecordWriter =>
    inlineWriter(
      {
        dir,
        open: loadOpener(openFile),
        rotateBytes,
        commitDelayMs,
        segment: recovered.segment,
        size: recovered.size,
        head: recovered.head,
        redactor,
      },
      hooks,
    );
  const mode = choice.writer ?? (typeof openFile === 'function' ? 'inline' : undefined);
  if (mode === 'inline') return inline();
  if (typeof openFile === 'function')
    throw new TypeError(
      'an openFile function cannot be used by the writer thread: name it by module, or ask for the inline writer',
    );
  try {
    const setup = {
      dir,
      rotateBytes,
      commitDelayMs,
      segment: recovered.segment.index,
      size: recovered.size,
      head: recovered.head,
      openFile,
    };
    return await WorkerWriter.start(setup, redactor, hooks);
  } catch (error) {
    if (mode === 'thread') throw error;
    notes.push(
      `${error instanceof Error ? error.message : String(error)}; events are written on the calling thread`,
    );
    return inline();
  }
}
