/**
 * A worker thread of the local engine's pool: parses one document at a time, off the main event loop, so CPU-heavy
 * parsing never stalls HTTP handling or BullMQ lock renewal, and a hostile file can be killed with its thread.
 */
import { parentPort } from 'node:worker_threads';
import { parseDocument } from '../src/engine/engine.js';
import { EngineError } from '../src/engine/engine-error.js';
import type { ThreadReply, ThreadTask } from '../src/engine/thread-messages.js';

if (!parentPort) throw new Error('engine-thread must run as a worker thread');
const port = parentPort;

port.on('message', (task: ThreadTask) => {
  parseDocument({ bytes: task.bytes, fileName: task.fileName, options: task.options })
    .then((data) => port.postMessage({ id: task.id, ok: true, data } satisfies ThreadReply))
    .catch((error: unknown) => {
      const reply: ThreadReply =
        error instanceof EngineError
          ? { id: task.id, ok: false, error: { kind: 'document', apiCode: error.apiCode, status: error.status, message: error.message } }
          : { id: task.id, ok: false, error: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
      port.postMessage(reply);
    });
});
