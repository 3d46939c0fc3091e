/**
 * The pdfjs legacy build bundles core-js polyfills that, on Node 20 (V8 < 12.2), *replace* the native
 * `Array.prototype.push` with a JavaScript version (core-js "fixes" the error type thrown for arrays with a
 * non-writable length, a case neither pdfjs nor docmill meets). That slows every `push` in the thread, pdfjs's
 * own text extraction included (about a tenth of the PDF time in profiles).
 *
 * This module must be imported before pdfjs: it records the native function, and `restoreNativePush()` puts it
 * back after pdfjs (and its worker module, loaded on the first document) have been evaluated. It only ever
 * restores a function the platform itself provided.
 */
const descriptor = Object.getOwnPropertyDescriptor(Array.prototype, 'push');
const nativePush = descriptor && /\[native code\]/.test(Function.prototype.toString.call(descriptor.value))
  ? descriptor
  : undefined;

export function restoreNativePush(): void {
  if (!nativePush || Array.prototype.push === nativePush.value) return;
  Object.defineProperty(Array.prototype, 'push', nativePush);
}
