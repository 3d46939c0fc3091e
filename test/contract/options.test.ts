/**
 * Parse options (spec parse-api-v2.md: "Parse options", "PDF parser object", "Redaction object", "Limits"),
 * checked through the public validateParseOptions(). Expected values are written out from the spec rather than
 * imported from src, so a drift in src shows up here.
 */
import { describe, it, expect } from 'vitest';
import { validateParseOptions, type BadRequestBody, type ParseOptions } from '../../src/contract/index.js';

const ALLOWED_FORMATS = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'] as const;
const ALL_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] as const;

const DEFAULT_PDF = { type: 'pdf', mode: 'auto', pages: false, blocks: false, pageMarkers: false } as const;

const DEFAULTS = {
  formats: [{ type: 'markdown' }],
  onlyMainContent: true,
  timeout: 30000,
  parsers: [DEFAULT_PDF],
  skipTlsVerification: true,
  removeBase64Images: true,
  blockAds: true,
  redactPII: false,
  origin: 'api',
  zeroDataRetention: false,
};

/** Validates input that must be accepted and returns the options with defaults applied. */
function valid(input: unknown): ParseOptions {
  const result = validateParseOptions(input);
  if (!result.ok) {
    throw new Error(`expected ${JSON.stringify(input)} to be accepted, got ${JSON.stringify(result.body)}`);
  }
  return result.options;
}

/** Validates input that must be refused and checks the 400 body names `path` in `details` and in `error`. */
function invalid(input: unknown, path: string): BadRequestBody {
  const result = validateParseOptions(input);
  if (result.ok) {
    throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${JSON.stringify(result.options)}`);
  }
  const body = result.body;
  expect(body.success).toBe(false);
  expect(body.code).toBe('BAD_REQUEST');
  expect(body.details.map((detail) => detail.path)).toContain(path);
  expect(body.error).toContain(`${path}:`);
  return body;
}

function messageAt(body: BadRequestBody, path: string): string {
  const detail = body.details.find((entry) => entry.path === path);
  if (!detail) throw new Error(`no detail at ${path}`);
  return detail.message;
}

describe('defaults', () => {
  it.each([
    ['undefined (no options part)', undefined],
    ['an empty object', {}],
  ])('%s gets every default and nothing else', (_name, input) => {
    const options = valid(input);
    expect(options).toStrictEqual(DEFAULTS);
    for (const key of ['proxy', 'auditMetadata', 'includeTags', 'excludeTags', 'headers', 'integration']) {
      expect(Object.hasOwn(options, key)).toBe(false);
    }
  });

  it('keeps the defaults of fields that were not given', () => {
    expect(valid({ timeout: 5000, proxy: 'basic' })).toStrictEqual({ ...DEFAULTS, timeout: 5000, proxy: 'basic' });
  });

  it('accepts a full options object and returns it with the parser defaults filled in', () => {
    const input = {
      formats: [{ type: 'markdown' }, { type: 'json', schema: { type: 'object' }, prompt: 'Extract the totals' }],
      onlyMainContent: false,
      includeTags: ['main'],
      excludeTags: ['nav', 'footer'],
      headers: { 'User-Agent': 'docmill' },
      timeout: 120000,
      parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 20 }],
      skipTlsVerification: false,
      removeBase64Images: false,
      blockAds: false,
      redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'mask' },
      proxy: 'auto',
      origin: 'docmill-cli',
      integration: 'zapier',
      auditMetadata: { username: 'alice' },
      zeroDataRetention: true,
    };
    expect(valid(input)).toStrictEqual({
      ...input,
      parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 20, pages: false, blocks: false, pageMarkers: false }],
    });
  });

  it('gives each call its own default objects, so changing one result does not change later defaults', () => {
    const first = valid({});
    const format = first.formats[0] as { type: string };
    const parser = first.parsers[0] as { mode: string };
    format.type = 'html';
    parser.mode = 'ocr';
    try {
      expect(valid({}).formats).toStrictEqual([{ type: 'markdown' }]);
      expect(valid({}).parsers).toStrictEqual([DEFAULT_PDF]);
    } finally {
      // Undo, in case the defaults are shared, so the other tests still see the real defaults.
      format.type = 'markdown';
      parser.mode = 'auto';
    }
  });

  it('does not modify its input', () => {
    const input = { formats: [{ type: 'html' }], parsers: ['pdf'], redactPII: {} };
    const copy = structuredClone(input);
    valid(input);
    expect(input).toStrictEqual(copy);
  });
});

describe('formats', () => {
  it.each(ALLOWED_FORMATS)('accepts {type: %s}', (type) => {
    expect(valid({ formats: [{ type }] }).formats).toStrictEqual([{ type }]);
  });

  it('accepts all seven allowed types together, in the order given', () => {
    const formats = [...ALLOWED_FORMATS].reverse().map((type) => ({ type }));
    expect(valid({ formats }).formats).toStrictEqual(formats);
  });

  it.each(['screenshot', 'changeTracking', 'branding', 'question', 'highlights', 'product', 'Markdown', ''])(
    'refuses the unsupported type %j with a message listing the allowed ones',
    (type) => {
      const body = invalid({ formats: [{ type: 'markdown' }, { type }] }, 'formats.1.type');
      const message = messageAt(body, 'formats.1.type');
      for (const allowed of ALLOWED_FORMATS) expect(message).toContain(allowed);
    },
  );

  it.each([
    ['a number', 1],
    ['null', null],
    ['an array', [{ type: 'html' }]],
  ])('refuses %s as a format element', (_name, element) => {
    invalid({ formats: [{ type: 'markdown' }, element] }, 'formats.1');
  });

  it.each([
    ['an empty object', {}],
    ['a json object without type', { prompt: 'Extract' }],
    ['a non-string type', { type: 5 }],
  ])('refuses %s (type is required)', (_name, element) => {
    invalid({ formats: [element] }, 'formats.0.type');
  });

  it.each([
    ['schema and prompt', { type: 'json', schema: { type: 'object', properties: { total: { type: 'number' } } }, prompt: 'Totals' }],
    ['schema only', { type: 'json', schema: {} }],
    ['prompt only', { type: 'json', prompt: 'Summarise as JSON' }],
    ['neither', { type: 'json' }],
  ])('accepts json with %s', (_name, format) => {
    expect(valid({ formats: [format] }).formats).toStrictEqual([format]);
  });

  it.each([['a string', 'object'], ['a number', 1], ['an array', [{ type: 'object' }]], ['null', null], ['a boolean', true]])(
    'refuses json with %s as schema',
    (_name, schema) => {
      invalid({ formats: [{ type: 'json', schema }] }, 'formats.0.schema');
    },
  );

  it.each([['a number', 1], ['an object', { text: 'x' }], ['an array', ['x']], ['null', null]])(
    'refuses json with %s as prompt',
    (_name, prompt) => {
      invalid({ formats: [{ type: 'json', prompt }] }, 'formats.0.prompt');
    },
  );

  it.each([
    [{ type: 'markdown', extra: 1 }, 'formats.0.extra'],
    [{ type: 'markdown', schema: {} }, 'formats.0.schema'],
    [{ type: 'html', prompt: 'x' }, 'formats.0.prompt'],
    [{ type: 'json', prompt: 'x', mode: 'strict' }, 'formats.0.mode'],
    [{ type: 'summary', onlyMainContent: true }, 'formats.0.onlyMainContent'],
  ])('refuses the extra key in %j', (format, path) => {
    invalid({ formats: [format] }, path);
  });

  it.each([
    [[{ type: 'markdown' }, { type: 'markdown' }], 'formats.1.type'],
    [[{ type: 'markdown' }, { type: 'html' }, { type: 'markdown' }], 'formats.2.type'],
    [[{ type: 'json', prompt: 'a' }, { type: 'json', prompt: 'b' }], 'formats.1.type'],
  ])('refuses a format listed twice: %j', (formats, path) => {
    invalid({ formats }, path);
  });

  it.each([['a string', 'markdown'], ['an object', { type: 'markdown' }], ['null', null], ['a number', 1]])(
    'refuses %s instead of an array',
    (_name, formats) => {
      invalid({ formats }, 'formats');
    },
  );
});

describe('formats written as names alone (the SDK\'s shorthand)', () => {
  const SHORTHAND = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images'] as const;

  it.each(SHORTHAND)('accepts %j and normalises it to {type: %j}', (type) => {
    expect(valid({ formats: [type] }).formats).toStrictEqual([{ type }]);
  });

  it('accepts the SDK\'s documented call, names and objects mixed, in the order given', () => {
    expect(valid({ formats: ['markdown', 'html', { type: 'links' }, 'summary'] }).formats).toStrictEqual([
      { type: 'markdown' },
      { type: 'html' },
      { type: 'links' },
      { type: 'summary' },
    ]);
  });

  it('gives the same options for the name and the object, so both convert alike', () => {
    expect(valid({ formats: SHORTHAND })).toStrictEqual(valid({ formats: SHORTHAND.map((type) => ({ type })) }));
  });

  it('refuses json as a name alone, saying it needs a schema or a prompt', () => {
    const body = invalid({ formats: ['markdown', 'json'] }, 'formats.1');
    const message = messageAt(body, 'formats.1');
    expect(message).toContain('schema');
    expect(message).toContain('prompt');
  });

  it.each(['screenshot', 'changeTracking', 'branding', 'product', 'menu', 'attributes', 'audio', 'Markdown', 'HTML', ''])(
    'refuses the name %j with the list of accepted formats',
    (type) => {
      const body = invalid({ formats: [type] }, 'formats.0');
      const message = messageAt(body, 'formats.0');
      for (const allowed of ALLOWED_FORMATS) expect(message).toContain(allowed);
    },
  );

  it('refuses a format given twice, once as a name and once as an object', () => {
    invalid({ formats: ['html', { type: 'html' }] }, 'formats.1.type');
  });
});

describe('what the hosted API\'s SDK sends beyond the contract', () => {
  it('accepts the origin the SDK adds to every parse', () => {
    expect(valid({ origin: 'js-sdk@4.42.0' }).origin).toBe('js-sdk@4.42.0');
  });

  it.each([
    ['fastMode', true],
    ['useMock', 'recorded-response'],
    ['profile', { name: 'team', saveChanges: false }],
    ['domainTools', true],
  ])('accepts %s (%j) and drops it: it means nothing for a parse of an uploaded file', (field, value) => {
    const options = valid({ [field]: value });
    expect(options).toStrictEqual(DEFAULTS);
    expect(Object.hasOwn(options, field)).toBe(false);
  });

  it.each([
    ['fastMode', 'yes', 'fastMode'],
    ['useMock', 1, 'useMock'],
    ['profile', 'team', 'profile'],
    ['profile', { name: 'team', extra: 1 }, 'profile.extra'],
    ['domainTools', 'on', 'domainTools'],
  ])('still refuses %s with a value of the wrong type (%j)', (field, value, path) => {
    invalid({ [field]: value }, path);
  });

  it.each(['waitFor', 'actions', 'location', 'mobile', 'maxAge', 'minAge', 'storeInCache', 'lockdown', 'threatProtection', 'toolDetail'])(
    'still refuses %s, which the SDK refuses or leaves out of its parse options',
    (key) => {
      invalid({ [key]: 1 }, key);
    },
  );

  it("accepts the parser 'image', as a name or an object, and keeps the PDF parser only", () => {
    expect(valid({ parsers: ['pdf', 'image'] }).parsers).toStrictEqual([DEFAULT_PDF]);
    expect(valid({ parsers: [{ type: 'image' }, { type: 'pdf', pages: true }] }).parsers).toStrictEqual([{ ...DEFAULT_PDF, pages: true }]);
    expect(valid({ parsers: ['image'] }).parsers).toStrictEqual([]);
  });

  it('refuses an image parser with keys, or listed twice', () => {
    invalid({ parsers: [{ type: 'image', mode: 'ocr' }] }, 'parsers.0.mode');
    invalid({ parsers: ['image', { type: 'image' }] }, 'parsers');
  });

  it.each([
    [{ type: 'pdf', pageMarkdown: true }, { ...DEFAULT_PDF, pages: true }],
    [{ type: 'pdf', pageMarkdown: false }, DEFAULT_PDF],
    [{ type: 'pdf', pageMarkdown: false, pages: true }, { ...DEFAULT_PDF, pages: true }],
  ])('takes the former pageMarkdown as pages: %j', (parser, expected) => {
    expect(valid({ parsers: [parser] }).parsers).toStrictEqual([expected]);
  });

  it('refuses pageMarkdown that is not a boolean', () => {
    invalid({ parsers: [{ type: 'pdf', pageMarkdown: 'yes' }] }, 'parsers.0.pageMarkdown');
  });

  it('accepts checkPromptInjection false on the json format and drops it', () => {
    expect(valid({ formats: [{ type: 'json', prompt: 'x', checkPromptInjection: false }] }).formats).toStrictEqual([{ type: 'json', prompt: 'x' }]);
  });

  it('refuses checkPromptInjection true, a check docmill does not run, rather than ignore it', () => {
    const body = invalid({ formats: [{ type: 'json', prompt: 'x', checkPromptInjection: true }] }, 'formats.0.checkPromptInjection');
    expect(messageAt(body, 'formats.0.checkPromptInjection')).toContain('prompt-injection');
  });

  it('accepts the options object the SDK builds for a typical call', () => {
    const options = valid({
      formats: ['markdown', 'html', 'links', 'summary'],
      parsers: [{ type: 'pdf', pages: true, blocks: true, pageMarkers: true }],
      redactPII: { mode: 'fast', replaceStyle: 'mask' },
      timeout: 60000,
      integration: 'my-app',
      origin: 'js-sdk@4.42.0',
    });
    expect(options.formats).toStrictEqual([{ type: 'markdown' }, { type: 'html' }, { type: 'links' }, { type: 'summary' }]);
    expect(options.parsers).toStrictEqual([{ ...DEFAULT_PDF, pages: true, blocks: true, pageMarkers: true }]);
  });
});

describe('boolean options', () => {
  const fields = ['onlyMainContent', 'skipTlsVerification', 'removeBase64Images', 'blockAds', 'zeroDataRetention'];

  it.each(fields.flatMap((field) => [true, false].map((value) => [field, value] as const)))(
    'accepts %s = %s',
    (field, value) => {
      expect(valid({ [field]: value })[field as keyof ParseOptions]).toBe(value);
    },
  );

  it.each(fields.flatMap((field) => ['true', 'false', 1, 0, null, {}].map((value) => [field, value] as const)))(
    'refuses %s = %j',
    (field, value) => {
      invalid({ [field]: value }, field);
    },
  );
});

describe('includeTags, excludeTags and headers', () => {
  it.each(['includeTags', 'excludeTags'])('%s accepts an array of strings, empty included', (field) => {
    expect(valid({ [field]: ['main', 'article'] })[field as keyof ParseOptions]).toStrictEqual(['main', 'article']);
    expect(valid({ [field]: [] })[field as keyof ParseOptions]).toStrictEqual([]);
  });

  it.each([
    ['includeTags', 'main', 'includeTags'],
    ['includeTags', ['main', 1], 'includeTags.1'],
    ['excludeTags', { nav: true }, 'excludeTags'],
    ['excludeTags', [null], 'excludeTags.0'],
  ])('%s refuses %j', (field, value, path) => {
    invalid({ [field]: value }, path);
  });

  it('headers accepts a string to string record', () => {
    const headers = { 'User-Agent': 'docmill', 'Accept-Language': 'en' };
    expect(valid({ headers }).headers).toStrictEqual(headers);
    expect(valid({ headers: {} }).headers).toStrictEqual({});
  });

  it.each([
    [{ 'X-Num': 5 }, 'headers.X-Num'],
    [{ Accept: 'text/html', 'X-Flag': true }, 'headers.X-Flag'],
    [{ 'X-Null': null }, 'headers.X-Null'],
    ['User-Agent: docmill', 'headers'],
    [['User-Agent', 'docmill'], 'headers'],
  ])('headers refuses %j', (headers, path) => {
    invalid({ headers }, path);
  });
});

describe('timeout', () => {
  it.each([1, 30000, 300000])('accepts %d ms', (timeout) => {
    expect(valid({ timeout }).timeout).toBe(timeout);
  });

  it.each([0, -5, 300001, 1.5, '30000', null, Number.POSITIVE_INFINITY])('refuses %j', (timeout) => {
    invalid({ timeout }, 'timeout');
  });
});

describe('parsers (PDF parser object)', () => {
  it("normalises the string 'pdf' to the parser object with its defaults", () => {
    expect(valid({ parsers: ['pdf'] }).parsers).toStrictEqual([DEFAULT_PDF]);
  });

  it('fills in the defaults of {type: pdf}', () => {
    expect(valid({ parsers: [{ type: 'pdf' }] }).parsers).toStrictEqual([DEFAULT_PDF]);
  });

  it.each(['fast', 'auto', 'ocr'])('accepts mode %s', (mode) => {
    expect(valid({ parsers: [{ type: 'pdf', mode }] }).parsers).toStrictEqual([{ ...DEFAULT_PDF, mode }]);
  });

  it.each(['slow', 'OCR', '', 1, null])('refuses mode %j', (mode) => {
    invalid({ parsers: [{ type: 'pdf', mode }] }, 'parsers.0.mode');
  });

  it.each([1, 500, 10000])('accepts maxPages %d', (maxPages) => {
    expect(valid({ parsers: [{ type: 'pdf', maxPages }] }).parsers).toStrictEqual([{ ...DEFAULT_PDF, maxPages }]);
  });

  it.each([0, -1, 10001, 2.5, '10', null])('refuses maxPages %j', (maxPages) => {
    invalid({ parsers: [{ type: 'pdf', maxPages }] }, 'parsers.0.maxPages');
  });

  it.each(['pages', 'blocks', 'pageMarkers'].flatMap((field) => [true, false].map((value) => [field, value] as const)))(
    'accepts %s = %s',
    (field, value) => {
      expect(valid({ parsers: [{ type: 'pdf', [field]: value }] }).parsers).toStrictEqual([{ ...DEFAULT_PDF, [field]: value }]);
    },
  );

  it.each(['pages', 'blocks', 'pageMarkers'].flatMap((field) => ['true', 1, null].map((value) => [field, value] as const)))(
    'refuses %s = %j',
    (field, value) => {
      invalid({ parsers: [{ type: 'pdf', [field]: value }] }, `parsers.0.${field}`);
    },
  );

  it.each(['ocrLanguage', 'Mode', 'maxpages', 'formats'])('refuses the unknown key %s on the parser object', (key) => {
    invalid({ parsers: [{ type: 'pdf', [key]: 'x' }] }, `parsers.0.${key}`);
  });

  it.each([
    ['type docx', { type: 'docx' }, 'parsers.0.type'],
    ['type PDF', { type: 'PDF' }, 'parsers.0.type'],
    ['no type', { mode: 'fast' }, 'parsers.0.type'],
    ["the string 'docx'", 'docx', 'parsers.0'],
    ['a number', 1, 'parsers.0'],
  ])('refuses a parser with %s', (_name, parser, path) => {
    invalid({ parsers: [parser] }, path);
  });

  it.each([
    ['two objects', [{ type: 'pdf' }, { type: 'pdf', mode: 'ocr' }]],
    ['two strings', ['pdf', 'pdf']],
  ])('refuses %s', (_name, parsers) => {
    invalid({ parsers }, 'parsers');
  });

  it.each([['a string', 'pdf'], ['an object', { type: 'pdf' }]])('refuses %s instead of an array', (_name, parsers) => {
    invalid({ parsers }, 'parsers');
  });
});

describe('redactPII', () => {
  const REDACTION_DEFAULTS = { mode: 'accurate', entities: [...ALL_ENTITIES], replaceStyle: 'tag' };

  it.each([true, false])('accepts %s', (redactPII) => {
    expect(valid({ redactPII }).redactPII).toBe(redactPII);
  });

  it('fills in the defaults of {}', () => {
    expect(valid({ redactPII: {} }).redactPII).toStrictEqual(REDACTION_DEFAULTS);
  });

  it.each(['accurate', 'aggressive', 'fast'])('accepts mode %s', (mode) => {
    expect(valid({ redactPII: { mode } }).redactPII).toStrictEqual({ ...REDACTION_DEFAULTS, mode });
  });

  it.each(['tag', 'mask', 'remove'])('accepts replaceStyle %s', (replaceStyle) => {
    expect(valid({ redactPII: { replaceStyle } }).redactPII).toStrictEqual({ ...REDACTION_DEFAULTS, replaceStyle });
  });

  it.each(ALL_ENTITIES)('accepts the entity %s', (entity) => {
    expect(valid({ redactPII: { entities: [entity] } }).redactPII).toStrictEqual({ ...REDACTION_DEFAULTS, entities: [entity] });
  });

  it('accepts every setting at once', () => {
    const redactPII = { mode: 'aggressive', entities: ['SECRET', 'PHONE'], replaceStyle: 'remove' };
    expect(valid({ redactPII }).redactPII).toStrictEqual(redactPII);
  });

  it.each([
    ['a bad mode', { mode: 'paranoid' }, 'redactPII.mode'],
    ['a bad entity first', { entities: ['SSN'] }, 'redactPII.entities.0'],
    ['a bad entity second', { entities: ['EMAIL', 'email'] }, 'redactPII.entities.1'],
    ['entities as a string', { entities: 'EMAIL' }, 'redactPII.entities'],
    ['a bad replaceStyle', { replaceStyle: 'blur' }, 'redactPII.replaceStyle'],
    ['an extra key', { mode: 'fast', language: 'en' }, 'redactPII.language'],
  ])('refuses %s with the nested path', (_name, redactPII, path) => {
    invalid({ redactPII }, path);
  });

  it.each([['the string "true"', 'true'], ['a number', 1], ['null', null], ['an array', ['EMAIL']]])(
    'refuses %s',
    (_name, redactPII) => {
      invalid({ redactPII }, 'redactPII');
    },
  );
});

describe('proxy, origin and integration', () => {
  it.each(['basic', 'auto'])('accepts proxy %s', (proxy) => {
    expect(valid({ proxy }).proxy).toBe(proxy);
  });

  it.each(['stealth', 'enhanced', 'BASIC', '', true, null])('refuses proxy %j', (proxy) => {
    invalid({ proxy }, 'proxy');
  });

  it('accepts any origin string', () => {
    expect(valid({ origin: 'docmill-cli' }).origin).toBe('docmill-cli');
  });

  it.each([5, null, ['api']])('refuses origin %j', (origin) => {
    invalid({ origin }, 'origin');
  });

  it.each(['zapier', null])('accepts integration %j', (integration) => {
    expect(valid({ integration }).integration).toBe(integration);
  });

  it.each([5, false, { name: 'zapier' }])('refuses integration %j', (integration) => {
    invalid({ integration }, 'integration');
  });
});

describe('auditMetadata', () => {
  it.each([
    ['a short username', 'alice'],
    ['a username of exactly 1024 characters', 'u'.repeat(1024)],
  ])('accepts %s', (_name, username) => {
    expect(valid({ auditMetadata: { username } }).auditMetadata).toStrictEqual({ username });
  });

  it.each([
    ['a username of 1025 characters', { username: 'u'.repeat(1025) }, 'auditMetadata.username'],
    ['a missing username', {}, 'auditMetadata.username'],
    ['a non-string username', { username: 42 }, 'auditMetadata.username'],
    ['an extra key', { username: 'alice', email: 'alice@example.com' }, 'auditMetadata.email'],
    ['a string instead of an object', 'alice', 'auditMetadata'],
    ['null', null, 'auditMetadata'],
  ])('refuses %s', (_name, auditMetadata, path) => {
    invalid({ auditMetadata }, path);
  });
});

describe('the options object as a whole', () => {
  it.each(['onlyMainContnet', 'url', 'actions', 'changeTrackingOptions', 'maxPages'])(
    'refuses the unknown top-level key %s',
    (key) => {
      invalid({ [key]: true }, key);
    },
  );

  it.each([['an array', []], ['a string', 'markdown'], ['a number', 1], ['null (an options part holding JSON null)', null]])('refuses %s as the options', (_name, input) => {
    invalid(input, '');
  });

  it('reports several errors at once', () => {
    const input = {
      formats: [{ type: 'screenshot' }],
      timeout: 0,
      parsers: [{ type: 'pdf', maxPages: 10001, mode: 'slow' }],
      redactPII: { entities: ['SSN'] },
      proxy: 'stealth',
      auditMetadata: { username: 'alice', role: 'admin' },
      onlyMainContnet: true,
    };
    const expected = [
      'formats.0.type',
      'timeout',
      'parsers.0.maxPages',
      'parsers.0.mode',
      'redactPII.entities.0',
      'proxy',
      'auditMetadata.role',
      'onlyMainContnet',
    ];
    const body = invalid(input, 'timeout');
    expect(body.details.map((detail) => detail.path)).toEqual(expect.arrayContaining(expected));
    expect(body.details.length).toBeGreaterThanOrEqual(expected.length);
    for (const detail of body.details) expect(detail.message).not.toBe('');
  });

  it('reports a duplicate format alongside field errors', () => {
    const body = invalid({ formats: [{ type: 'html' }, { type: 'html' }], timeout: 300001 }, 'timeout');
    expect(body.details.map((detail) => detail.path)).toContain('formats.1.type');
  });
});

describe('idempotence', () => {
  it.each([
    ['undefined', undefined],
    ['{}', {}],
    ["parsers ['pdf']", { parsers: ['pdf'] }],
    ["parsers ['pdf', 'image'] with pageMarkdown", { parsers: [{ type: 'pdf', pageMarkdown: true }, 'image'] }],
    ['formats as names', { formats: ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images'] }],
    ['SDK-only fields', { fastMode: true, useMock: 'm', profile: { name: 'p' }, domainTools: false }],
    ['redactPII true', { redactPII: true }],
    ['redactPII {}', { redactPII: {} }],
    ['integration null', { integration: null }],
    [
      'a full object',
      {
        formats: [{ type: 'links' }, { type: 'json', schema: { type: 'object' }, prompt: 'x' }],
        includeTags: ['main'],
        excludeTags: [],
        headers: { Accept: 'text/html' },
        timeout: 1,
        parsers: [{ type: 'pdf', mode: 'fast', maxPages: 10000, pages: true, blocks: true, pageMarkers: true }],
        redactPII: { mode: 'aggressive', entities: ['PERSON'], replaceStyle: 'mask' },
        proxy: 'basic',
        origin: 'sdk',
        integration: 'n8n',
        auditMetadata: { username: 'bob' },
        zeroDataRetention: true,
      },
    ],
  ])('validating the output again for %s gives the same object', (_name, input) => {
    const once = valid(input);
    expect(valid(once)).toStrictEqual(once);
  });
});
