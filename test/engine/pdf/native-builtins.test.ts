/**
 * The native Array.prototype.push, JSON.stringify and JSON.parse that pdfjs's polyfills replace: recorded only
 * when they are the platform's own functions, put back after pdfjs loads. Nothing here may load pdfjs into this
 * test's thread (no helpers.js): `original` must be the platform's push, `originalStringify` its stringify.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineThreadPool } from '../../../src/engine/thread-pool.js';
import { nativeDescriptor } from '../../../src/engine/pdf/native-builtins.js';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { plainTablePdf } from './ruled-pdfs.js';

const RECORD = Symbol.for('docmill.native.Array.prototype.push');
const original = Object.getOwnPropertyDescriptor(Array.prototype, 'push')!;
const originalStringify = Object.getOwnPropertyDescriptor(JSON, 'stringify')!;
const originalParse = Object.getOwnPropertyDescriptor(JSON, 'parse')!;

/** A polyfill-like push written in JavaScript, as core-js installs it. */
function polyfillPush(this: unknown[], ...values: unknown[]): number {
  return original.value.apply(this, values) as number;
}

/** Another, to be printed as native code the way core-js disguises its functions. */
function disguisedPush(this: unknown[], ...values: unknown[]): number {
  return original.value.apply(this, values) as number;
}

/** A stringify as core-js installs it: every key and value through a JavaScript callback. */
function polyfillStringify(value: unknown, _replacer?: unknown, space?: string | number): string {
  return (originalStringify.value as typeof JSON.stringify)(value, (_key: string, v: unknown) => v, space);
}

function polyfillParse(text: string): unknown {
  return (originalParse.value as typeof JSON.parse)(text);
}

afterEach(() => {
  Object.defineProperty(Array.prototype, 'push', original);
  Object.defineProperty(JSON, 'stringify', originalStringify);
  Object.defineProperty(JSON, 'parse', originalParse);
});

describe('native-builtins', () => {
  it('recognises the platform function and refuses a JavaScript replacement', () => {
    expect(nativeDescriptor(original)).toBe(original);
    expect(nativeDescriptor({ ...original, value: polyfillPush })).toBeUndefined();
    // core-js answers Function.prototype.toString for its functions with `function push() { [native code] }`.
    const realToString = Object.getOwnPropertyDescriptor(Function.prototype, 'toString')!;
    Object.defineProperty(Function.prototype, 'toString', {
      ...realToString,
      value(this: unknown) {
        return this === disguisedPush ? 'function push() { [native code] }' : (realToString.value as () => string).call(this);
      },
    });
    try {
      expect(Function.prototype.toString.call(disguisedPush)).toBe('function push() { [native code] }');
      expect(nativeDescriptor({ ...original, value: disguisedPush })).toBeUndefined();
    } finally {
      Object.defineProperty(Function.prototype, 'toString', realToString);
    }
    expect(nativeDescriptor(undefined)).toBeUndefined();
  });

  it('puts the recorded native push, stringify and parse back after polyfills replaced them', async () => {
    vi.resetModules();
    const fresh = await import('../../../src/engine/pdf/native-builtins.js');
    expect(fresh.captureNativeBuiltins()).toBe(true);
    Object.defineProperty(Array.prototype, 'push', { ...original, value: polyfillPush });
    Object.defineProperty(JSON, 'stringify', { ...originalStringify, value: polyfillStringify });
    Object.defineProperty(JSON, 'parse', { ...originalParse, value: polyfillParse });
    fresh.restoreNativeBuiltins();
    expect(Array.prototype.push).toBe(original.value);
    expect(JSON.stringify).toBe(originalStringify.value);
    expect(JSON.parse).toBe(originalParse.value);
    expect(JSON.stringify({ a: [1] })).toBe('{"a":[1]}');
  });

  it('records nothing, and so restores nothing, when the polyfill came first', async () => {
    const saved = (globalThis as Record<symbol, unknown>)[RECORD];
    delete (globalThis as Record<symbol, unknown>)[RECORD];
    try {
      Object.defineProperty(Array.prototype, 'push', { ...original, value: polyfillPush });
      vi.resetModules();
      const fresh = await import('../../../src/engine/pdf/native-builtins.js');
      expect(fresh.captureNativeBuiltins()).toBe(false);
      fresh.restoreNativeBuiltins();
      expect(Array.prototype.push).toBe(polyfillPush);
    } finally {
      (globalThis as Record<symbol, unknown>)[RECORD] = saved;
    }
  });
});

describe('the engine thread', () => {
  it('captures the native push in its entry and converts a PDF (the engine is loaded after the capture)', async () => {
    const pool = new EngineThreadPool({ size: 1 });
    try {
      const options = parseOptionsSchema.parse({ parsers: [{ type: 'pdf', mode: 'auto' }] });
      const data = await pool.run(plainTablePdf('stroke'), 'table.pdf', options);
      expect(data.markdown).toContain('| Name | Age | City |');
    } finally {
      await pool.close();
    }
  });
});
