/**
 * A worker thread of the local engine's pool: parses one document at a time, off the main event loop, so CPU-heavy
 * parsing never stalls HTTP handling or BullMQ lock renewal, and a hostile file can be killed with its thread.
 * The stage its conversion is in is written where the pool can read it (src/engine/stage-board.ts), so that a
 * timeout names one.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { countNativeCallsOn, threadEnding } from '../src/engine/native-calls.js';
import { useLiteParseModule, useNativeCopy } from '../src/engine/pdf/liteparse/load.js';
import { relayOcrTo } from '../src/engine/pdf/ocr/ocr-relay.js';
import { usePdfiumModule } from '../src/engine/pdf/pdfium-module.js';
import { captureNativeBuiltins } from '../src/engine/pdf/native-builtins.js';
import { clearStage, writeStage } from '../src/engine/stage-board.js';
import { collectGarbage } from '../src/engine/collect-garbage.js';
import { releaseWasmMemories, wasmMemoryBytes } from '../src/engine/wasm-memory.js';
import { encodeResult, type ThreadMemory, type ThreadMessage, type ThreadTask } from '../src/engine/thread-messages.js';
import type { ThreadStart } from '../src/engine/thread-start.js';

// First, before anything that can load pdfjs: its polyfills replace native built-ins (Array.prototype.push,
// JSON.stringify, JSON.parse), which the PDF converter puts back after loading it
// (src/engine/pdf/native-builtins.ts). The engine is imported only after the capture, so no import order
// elsewhere can defeat it; messages sent meanwhile wait in the port.
captureNativeBuiltins();
const start = workerData as ThreadStart;
useLiteParseModule(start.liteParseModule);
useNativeCopy(start.nativeCopy, start.nativeCopyRoots);
countNativeCallsOn(start.nativeBoard);
const { loadConverter, parseDocument } = await import('../src/engine/engine.js');
const { EngineError } = await import('../src/engine/engine-error.js');
const { listenToStages } = await import('../src/engine/stage.js');
const { liftDataImages } = await import('../src/backend/embedded-images.js');

if (!parentPort) throw new Error('engine-thread must run as a worker thread');
const port = parentPort;
// Pages to OCR are read by the pool's shared tesseract workers, not by workers of this thread's own.
const takeOcrAnswer = relayOcrTo(port);

/**
 * A document whose PDF renderer grew its memory this far (a page drawn at 300 DPI for OCR, a chart's large region:
 * 40-56 MB) is followed by a full collection, which frees that memory then, not whenever V8 next collects: soak
 * benchmark, 3,000 mixed documents, the resident set's plateau 850 -> 760 MB and its peak 938 -> 878 MB, for the
 * same CPU a document (BENCHMARKS.md §17). A collection after every document that drew at all cost 9 % more CPU.
 */
const COLLECT_AFTER_WASM_BYTES = 32 * 1024 * 1024;

/**
 * Documents are converted one at a time, in the order they come: the pool may post the next one while this one
 * runs (thread-pool.ts, `#prefetch`), so that it starts the moment this one's result is posted.
 */
const waiting: ThreadTask[] = [];
let converting = false;

port.on('message', (task: ThreadTask) => {
  if (takeOcrAnswer(task)) return;
  waiting.push(task);
  if (!converting) convertNext();
});

function convertNext(): void {
  // Being ended (its document's time ran out during a native call): the document posted ahead goes back to the pool.
  if (threadEnding()) waiting.length = 0;
  const task = waiting.shift();
  if (!task) {
    converting = false;
    return;
  }
  converting = true;
  void convert(task).finally(convertNext);
}

function convert(task: ThreadTask): Promise<void> {
  if (task.pdfium) usePdfiumModule(task.pdfium);
  clearStage(start.stageBoard);
  listenToStages((stage) => writeStage(start.stageBoard, stage));
  let drewBytes = 0;
  const memoryNow = (): ThreadMemory => threadMemory(drewBytes > 0);
  return parseDocument({ bytes: task.bytes, fileName: task.fileName, options: task.options, ocrLanguages: task.ocrLanguages, pictures: task.pictures })
    // PDFium's memory, grown to the document's largest page, is not kept for the next document (wasm-memory.ts); a
    // large one is freed at once rather than at some later collection (collect-garbage.ts).
    .finally(() => {
      drewBytes = releaseWasmMemories();
      if (drewBytes >= COLLECT_AFTER_WASM_BYTES) collectGarbage();
    })
    .then((data) => {
      // Each lifted picture owns its buffer (embedded-images.ts), so handing it over detaches nothing else.
      const lifted = task.liftImages ? liftDataImages(data) : { data, images: undefined };
      const { json, transfer } = encodeResult(lifted.data);
      if (lifted.images) for (const image of lifted.images) transfer.push(image.bytes.buffer as ArrayBuffer);
      port.postMessage({ id: task.id, ok: true, json, images: lifted.images, ...memoryNow() } satisfies ThreadMessage, transfer);
    })
    .catch((error: unknown) => {
      const reply: ThreadMessage =
        error instanceof EngineError
          ? { id: task.id, ok: false, error: { kind: 'document', apiCode: error.apiCode, status: error.status, message: error.message, detail: error.detail }, ...memoryNow() }
          : { id: task.id, ok: false, error: { kind: 'internal', message: describe(error) }, ...memoryNow() };
      port.postMessage(reply);
    })
    .finally(() => listenToStages(undefined));
}
port.postMessage({ ready: true } satisfies ThreadMessage);
// The formats its first documents are in, when the command knew them: loaded while it waits for them. A converter
// that fails to load fails again, with its error, for the document that needs it.
for (const name of start.converters ?? []) void loadConverter(name).catch(() => undefined);

/**
 * What the pool weighs to recycle this thread: the heap in use with the buffers V8 knows of outside it, the
 * WebAssembly memories kept, and whether the document drew with PDFium's.
 */
function threadMemory(drewWithWasm: boolean): ThreadMemory {
  const heap = getHeapStatistics();
  return { heapBytes: heap.used_heap_size + heap.external_memory, wasmBytes: wasmMemoryBytes(), drewWithWasm };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
