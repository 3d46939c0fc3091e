/**
 * The pdfjs legacy build bundles core-js polyfills that, on Node 20 (V8 < 12.2), *replace* the native
 * `Array.prototype.push` with a JavaScript version (core-js "fixes" the error type thrown for arrays with a
 * non-writable length, a case neither pdfjs nor docmill meets). That slows every `push` in the thread, pdfjs's
 * own text extraction included (about a tenth of the PDF time in profiles).
 *
 * The native function must be recorded before pdfjs is first evaluated in a thread. A thread's entry does it
 * explicitly, in its first lines, before it loads anything that can load pdfjs (workers/engine-thread.ts calls
 * `captureNativeBuiltins()` and imports the engine afterwards). The record is kept on the thread's global
 * object, so every copy of this module in the thread sees it. For in-process use (tests, benchmarks), this
 * module also records the function when it is first evaluated, which convert-pdf.ts arranges by importing it
 * ahead of pdfjs. `restoreNativePush()` puts the native function back after pdfjs (and its worker module,
 * loaded on the first document) have been evaluated. Only a function the platform itself provides is ever
 * recorded or restored.
 */
const NATIVE_PUSH = Symbol.for('docmill.native.Array.prototype.push');

type GlobalWithRecord = typeof globalThis & { [NATIVE_PUSH]?: PropertyDescriptor };

/**
 * The descriptor, when its value is the platform's own function, not a polyfill written in JavaScript. core-js
 * makes its functions print as `function push() { [native code] }`, so the text alone proves nothing; but a
 * built-in method is no constructor and has no own `prototype`, while core-js's `function push(item) {...}` has.
 */
export function nativeDescriptor(descriptor: PropertyDescriptor | undefined): PropertyDescriptor | undefined {
  const value: unknown = descriptor?.value;
  return typeof value === 'function' &&
    !Object.hasOwn(value, 'prototype') &&
    /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(value))
    ? descriptor
    : undefined;
}

/** Records this thread's native `Array.prototype.push`, once; true when a native function is on record. */
export function captureNativeBuiltins(): boolean {
  const global = globalThis as GlobalWithRecord;
  global[NATIVE_PUSH] ??= nativeDescriptor(Object.getOwnPropertyDescriptor(Array.prototype, 'push'));
  return global[NATIVE_PUSH] !== undefined;
}

captureNativeBuiltins();

/** Puts the recorded native `push` back if something replaced it. */
export function restoreNativePush(): void {
  const native = (globalThis as GlobalWithRecord)[NATIVE_PUSH];
  if (!native || Array.prototype.push === native.value) return;
  Object.defineProperty(Array.prototype, 'push', native);
}
