/** The OCR language of a document: its declared language when that data is installed, English otherwise. */
import { describe, expect, it } from 'vitest';
import { languageDataFolder, ocrLanguageFor } from '../../../src/engine/pdf/ocr/languages.js';

describe('ocrLanguageFor', () => {
  it('reads English documents, and documents without or with an unknown language, in English', () => {
    expect(ocrLanguageFor('en-US')).toEqual({ language: 'eng' });
    expect(ocrLanguageFor(undefined)).toEqual({ language: 'eng' });
    expect(ocrLanguageFor('tlh')).toEqual({ language: 'eng' });
  });

  it('names the missing data of a declared language whose package is not installed', () => {
    expect(ocrLanguageFor('de-DE')).toEqual({ language: 'eng', missing: 'deu' });
    expect(ocrLanguageFor('FR')).toEqual({ language: 'eng', missing: 'fra' });
  });

  it('finds the shipped English data (tessdata_fast) and refuses names that are not language codes', () => {
    expect(languageDataFolder('eng')).toMatch(/[/\\]models[/\\]tessdata_fast$/);
    expect(languageDataFolder('../eng')).toBeUndefined();
    expect(languageDataFolder('deu')).toBeUndefined();
  });
});
