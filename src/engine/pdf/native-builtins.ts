/**
 * The pdfjs legacy build bundles core-js polyfills that, on Node 20 (V8 < 12.2), *replace* native built-ins with
 * JavaScript versions for every user of the thread: `Array.prototype.push` (core-js "fixes" the error type thrown
 * for arrays with a non-writable length), `JSON.stringify` (for `JSON.rawJSON`, which it adds: every key and value
 * then goes through a JavaScript callback) and `JSON.parse` (for the source-text access proposal). No caller of
 * docmill's uses what they add. The slow `push` costs pdfjs's own text extraction about a tenth of the PDF time,
 * and the slow `stringify` doubled the cost of encoding each result for the pool (thread-messages.ts).
 *
 * The native functions must be recorded before pdfjs is first evaluated in a thread. A thread's entry does it
 * explicitly, in its first lines, before it loads anything that can load pdfjs (workers/engine-thread.ts calls
 * `captureNativeBuiltins()` and imports the engine afterwards). The record is kept on the thread's global
 * object, so every copy of this module in the thread sees it. For in-process use (tests, benchmarks), this
 * module also records them when it is first evaluated, which convert-pdf.ts arranges by importing it ahead of
 * pdfjs. `restoreNativeBuiltins()` puts the native functions back after pdfjs (and its worker module, loaded on
 * the first document) have been evaluated. Only a function the platform itself provides is ever recorded or
 * restored.
 */

/** The built-ins pdfjs's polyfills replace, by where they live. */
const BUILTINS = [
  { name: 'Array.prototype.push', owner: Array.prototype, key: 'push' },
  { name: 'JSON.stringify', owner: JSON, key: 'stringify' },
  { name: 'JSON.parse', owner: JSON, key: 'parse' },
] as const;

const recordOf = (name: string): symbol => Symbol.for(`docmill.native.${name}`);

type GlobalWithRecords = typeof globalThis & Record<symbol, PropertyDescriptor | undefined>;

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

/** Records this thread's native built-ins, once each; true when every one is on record as native. */
export function captureNativeBuiltins(): boolean {
  const global = globalThis as GlobalWithRecords;
  let all = true;
  for (const { name, owner, key } of BUILTINS) {
    const record = recordOf(name);
    global[record] ??= nativeDescriptor(Object.getOwnPropertyDescriptor(owner, key));
    if (global[record] === undefined) all = false;
  }
  return all;
}

captureNativeBuiltins();

/** Puts each recorded native function back where something replaced it. */
export function restoreNativeBuiltins(): void {
  const global = globalThis as GlobalWithRecords;
  for (const { name, owner, key } of BUILTINS) {
    const native = global[recordOf(name)];
    if (native && Object.getOwnPropertyDescriptor(owner, key)?.value !== native.value) Object.defineProperty(owner, key, native);
  }
}
