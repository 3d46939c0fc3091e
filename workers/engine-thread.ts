/**
 * A worker thread of the local engine's pool: parses one document at a time, off the main event loop, so CPU-heavy
 * parsing never stalls HTTP handling or BullMQ lock renewal, and a hostile file can be killed with its thread.
 */
import { parentPort } from 'node:worker_threads';
import { captureNativeBuiltins } from '../src/engine/pdf/native-builtins.js';
import type { ThreadReply, ThreadTask } from '../src/engine/thread-messages.js';

// First, before anything that can load pdfjs: its polyfills replace the native Array.prototype.push, which the
// PDF converter puts back after loading it (src/engine/pdf/native-builtins.ts). The engine is imported only
// after the capture, so no import order elsewhere can defeat it; messages sent meanwhile wait in the port.
captureNativeBuiltins();
const { parseDocument } = await import('../src/engine/engine.js');
const { EngineError } = await import('../src/engine/engine-error.js');

if (!parentPort) throw new Error('engine-thread must run as a worker thread');
const port = parentPort;

port.on('message', (task: ThreadTask) => {
  parseDocument({ bytes: task.bytes, fileName: task.fileName, options: task.options, ocrLanguages: task.ocrLanguages })
    .then((data) => port.postMessage({ id: task.id, ok: true, data } satisfies ThreadReply))
    .catch((error: unknown) => {
      const reply: ThreadReply =
        error instanceof EngineError
          ? { id: task.id, ok: false, error: { kind: 'document', apiCode: error.apiCode, status: error.status, message: error.message } }
          : { id: task.id, ok: false, error: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } };
      port.postMessage(reply);
    });
});
