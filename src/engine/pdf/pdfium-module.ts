/**
 * PDFium's WebAssembly module compiled once per pool, not once per thread. Compiling its 4.6 MB took each thread
 * some 100 ms of CPU, and the code V8 optimises as pages are read was each thread's own again: a thread that is
 * given the pool's compiled module (a WebAssembly.Module passes between threads sharing its code) only
 * instantiates it, and reads its first pages with code already warm (measured: four threads in turn, 930 ms of CPU
 * for the process against 525 ms). Threads without it (tests, a pool whose compile failed) compile their own.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

declare const compiled: unique symbol;
/** A compiled WebAssembly module (WebAssembly.Module): opaque, passed from the pool to its threads. */
export type CompiledPdfium = { readonly [compiled]: true };

/** The part of the WebAssembly API used here, which the project's lib (ES2023) does not declare. */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<CompiledPdfium>;
  instantiate(module: CompiledPdfium, imports: object): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

function wasmPath(): string {
  return createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
}

/** The pool's side: compiled off the main thread; undefined when it cannot be (the threads then compile their own). */
export async function compilePdfium(): Promise<CompiledPdfium | undefined> {
  try {
    return await wasm.compile(await readFile(wasmPath()));
  } catch {
    return undefined;
  }
}

let shared: CompiledPdfium | undefined;

/** The thread's side: the pool's module, used when this thread first loads PDFium. */
export function usePdfiumModule(module: CompiledPdfium): void {
  shared ??= module;
}

type ReceiveInstance = (instance: object, module: CompiledPdfium) => void;

/** What Emscripten's loader is given: the pool's module to instantiate, else the bytes to compile. */
export interface PdfiumLoading {
  wasmBinary?: Uint8Array;
  instantiateWasm?: (imports: object, receive: ReceiveInstance) => object;
}

export function pdfiumLoading(): PdfiumLoading {
  const module = shared;
  if (!module) return { wasmBinary: readFileSync(wasmPath()) };
  return {
    instantiateWasm: (imports, receive) => {
      // Emscripten waits for `receive` and hears of no failure: one here is left unhandled, which ends the thread
      // (the pool replaces it), rather than leave the document waiting for ever.
      void wasm.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
  };
}
