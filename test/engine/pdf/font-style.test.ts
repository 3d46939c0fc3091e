/** fontStyleOf (src/engine/pdf/convert-pdf.ts): bold and monospace from the font facts the patched worker reports. */
import { describe, expect, it } from 'vitest';
import { fontStyleOf } from '../../../src/engine/pdf/convert-pdf.js';
import type { PdfFontFacts } from '../../../src/engine/pdf/pdfjs-worker.js';

/** A regular, proportional font that says nothing about its weight. */
function facts(overrides: Partial<PdfFontFacts> = {}): PdfFontFacts {
  return { name: 'ABCDEF+NimbusSanL-Regu', bold: false, weight: null, forceBold: false, fixedPitch: false, ...overrides };
}

describe('fontStyleOf: bold', () => {
  it('is not bold for a regular font', () => {
    expect(fontStyleOf(facts(), 'sans-serif')).toEqual({ bold: false, monospace: false });
    expect(fontStyleOf(facts({ name: null }), 'serif')).toEqual({ bold: false, monospace: false });
  });

  it("is bold when pdfjs's own guess says bold", () => {
    expect(fontStyleOf(facts({ bold: true }), 'sans-serif').bold).toBe(true);
  });

  it('is bold from the descriptor weight from 600 up, not from 400 or 500', () => {
    expect(fontStyleOf(facts({ weight: 600 }), 'sans-serif').bold).toBe(true);
    expect(fontStyleOf(facts({ weight: 700 }), 'sans-serif').bold).toBe(true);
    expect(fontStyleOf(facts({ weight: 900 }), 'sans-serif').bold).toBe(true);
    expect(fontStyleOf(facts({ weight: 400 }), 'sans-serif').bold).toBe(false);
    expect(fontStyleOf(facts({ weight: 500 }), 'sans-serif').bold).toBe(false);
    expect(fontStyleOf(facts({ weight: 300 }), 'sans-serif').bold).toBe(false);
  });

  it('is bold from the ForceBold flag', () => {
    expect(fontStyleOf(facts({ forceBold: true }), 'sans-serif').bold).toBe(true);
  });

  it('is bold from a bold-looking PostScript name, subset prefix or not', () => {
    expect(fontStyleOf(facts({ name: 'ABCDEF+NimbusSanL-Bold' }), 'sans-serif').bold).toBe(true);
    expect(fontStyleOf(facts({ name: 'TimesNewRomanPS-BoldMT' }), 'serif').bold).toBe(true);
    expect(fontStyleOf(facts({ name: 'Helvetica-Bold' }), 'sans-serif').bold).toBe(true);
    expect(fontStyleOf(facts({ name: 'XYZABC+CMBX12' }), 'sans-serif').bold).toBe(true);
  });

  it('does not read bold into the random subset tag', () => {
    expect(fontStyleOf(facts({ name: 'BOLDXY+Helvetica' }), 'sans-serif').bold).toBe(false);
    expect(fontStyleOf(facts({ name: 'BLACKZ+Times-Roman' }), 'serif').bold).toBe(false);
  });

  it('does not make a bold font monospace', () => {
    expect(fontStyleOf(facts({ weight: 700, forceBold: true, name: 'Arial-BoldMT' }), 'sans-serif').monospace).toBe(false);
  });
});

describe('fontStyleOf: monospace', () => {
  it("is monospace when pdfjs's font family is 'monospace'", () => {
    expect(fontStyleOf(facts(), 'monospace')).toEqual({ bold: false, monospace: true });
  });

  it('is monospace from the FixedPitch flag', () => {
    expect(fontStyleOf(facts({ fixedPitch: true }), 'sans-serif')).toEqual({ bold: false, monospace: true });
  });

  it('is monospace from a monospaced font name', () => {
    expect(fontStyleOf(facts({ name: 'Courier' }), 'sans-serif').monospace).toBe(true);
    expect(fontStyleOf(facts({ name: 'ABCDEF+Courier-Oblique' }), 'serif').monospace).toBe(true);
    expect(fontStyleOf(facts({ name: 'QRSTUV+CMTT9' }), 'sans-serif').monospace).toBe(true);
  });

  it('keeps bold and monospace independent (a bold Courier is both)', () => {
    expect(fontStyleOf(facts({ name: 'Courier-Bold' }), 'monospace')).toEqual({ bold: true, monospace: true });
  });
});

describe('fontStyleOf without facts (a style the patched worker did not describe)', () => {
  it('is neither bold nor monospace', () => {
    expect(fontStyleOf(undefined, 'sans-serif')).toEqual({ bold: false, monospace: false });
    expect(fontStyleOf(undefined, 'serif')).toEqual({ bold: false, monospace: false });
    expect(fontStyleOf(undefined, undefined)).toEqual({ bold: false, monospace: false });
  });

  it("is monospace, not bold, when pdfjs's family is 'monospace'", () => {
    expect(fontStyleOf(undefined, 'monospace')).toEqual({ bold: false, monospace: true });
  });
});
