/**
 * Redaction through the local engine on the labelled PII set: what each mode must find is gone from every field of
 * `data`, the look-alikes survive, styles and entity filters do what they say, and block spans stay exact.
 */
import { describe, expect, it } from 'vitest';
import type { ParseOptionsInput } from '../../../src/contract/options.js';
import type { ParseData } from '../../../src/contract/response.js';
import { parseDocument } from '../../../src/engine/engine.js';
import type { PiiEntity, RedactionMode } from '../../../src/engine/redact/entities.js';
import { coreXml, makeDocx, paragraph, table } from '../docx/make-docx.js';
import { DOCUMENT_BYTES, LABELS, labelsFoundBy, optionsWith } from './pii-fixture.js';

const EVERY_OUTPUT: ParseOptionsInput = {
  formats: [{ type: 'markdown' }, { type: 'summary' }, { type: 'html' }, { type: 'rawHtml' }, { type: 'links' }],
  parsers: [{ type: 'pdf', pages: true, blocks: true }],
};

async function parseFixture(redactPII: ParseOptionsInput['redactPII'], extra: ParseOptionsInput = EVERY_OUTPUT): Promise<ParseData> {
  return parseDocument({ bytes: DOCUMENT_BYTES, fileName: 'incident-report.html', options: optionsWith({ ...extra, redactPII }) });
}

function expectExactSpans(data: ParseData): void {
  const markdown = data.markdown ?? '';
  let checked = 0;
  for (const page of data.blocks ?? []) {
    for (const item of page.items) {
      if (!item.markdownSpan) continue;
      expect(markdown.slice(item.markdownSpan[0], item.markdownSpan[1])).toBe(item.content);
      checked += 1;
    }
  }
  expect(checked).toBeGreaterThan(10);
}

describe('the labelled PII set through the local engine', () => {
  it('holds every label and look-alike when nothing is redacted (the set is meaningful)', async () => {
    const data = await parseFixture(false);
    const all = JSON.stringify(data);
    for (const label of LABELS.pii) expect(all, label.text).toContain(label.text);
    for (const lookalike of LABELS.lookalikes) expect(data.markdown, lookalike).toContain(lookalike);
  });

  it.each<RedactionMode>(['fast', 'accurate', 'aggressive'])(
    '%s removes what it promises from every output field and keeps every look-alike',
    async (mode) => {
      const data = await parseFixture({ mode });
      const everything = JSON.stringify(data);
      for (const label of labelsFoundBy(mode)) expect(everything, `${label.entity} ${label.text}`).not.toContain(label.text);
      for (const lookalike of LABELS.lookalikes) expect(data.markdown, lookalike).toContain(lookalike);
      expectExactSpans(data);
    },
  );

  it('fast finds no people or places, accurate leaves names the model does not know, aggressive takes them', async () => {
    const fast = await parseFixture({ mode: 'fast' }, {});
    expect(fast.markdown).toContain('Sarah Johnson');
    const accurate = await parseFixture({ mode: 'accurate' }, {});
    expect(accurate.markdown).toContain('Kwabena Oduya-Mensah');
    expect(accurate.markdown).not.toContain('Sarah Johnson');
    const aggressive = await parseFixture({ mode: 'aggressive' }, {});
    expect(aggressive.markdown).not.toContain('Kwabena Oduya-Mensah');
  });

  it('redacts the metadata that carries text and the mailto link, and keeps other links whole', async () => {
    const data = await parseFixture(true);
    expect(data.metadata).toMatchObject({
      title: 'Incident report for <PERSON>',
      author: '<PERSON>',
      description: 'Follow-up on the billing incident reported by <PERSON> (<EMAIL>).',
      language: 'en',
    });
    expect(data.links).toEqual(['mailto:<EMAIL>', 'https://docs.example.com/releases/2024']);
    expect(data.markdown).toContain('[his billing address](mailto:<EMAIL>)');
    expect(data.markdown).toContain('[release page](https://docs.example.com/releases/2024)');
    expect(data.rawHtml).toContain('<title>Incident report for <PERSON></title>');
    expect(data.rawHtml).toContain('<meta name="author" content="<PERSON>">');
    expect(data.html).toContain('<a href="mailto:<EMAIL>">his billing address</a>');
  });

  it.each<PiiEntity>(['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'])(
    'entities [%s] redacts that bucket only',
    async (entity) => {
      const data = await parseFixture({ mode: 'aggressive', entities: [entity] }, {});
      const markdown = data.markdown ?? '';
      const everything = JSON.stringify(data);
      for (const label of labelsFoundBy('aggressive', [entity])) expect(everything, label.text).not.toContain(label.text);
      const others = LABELS.pii.filter((label) => label.entity !== entity && label.tier === 'fast');
      for (const label of others) expect(everything, label.text).toContain(label.text);
      const tags = new Set([...markdown.matchAll(/<([A-Z]+)>/g)].map((match) => match[1]));
      expect([...tags]).toEqual([entity]);
    },
  );

  it('mask keeps the length of each span and the line structure; remove deletes the span', async () => {
    const masked = await parseFixture({ mode: 'fast', replaceStyle: 'mask' });
    expect(masked.markdown).toContain(`Questions go to ${'*'.repeat('maria.gonzalez@clinic-example.org'.length)} or`);
    expect(masked.markdown).toContain(`| Visa | ${'*'.repeat('4111 1111 1111 1111'.length)} | $1,299.00 |`);
    expect(masked.markdown).not.toMatch(/<[A-Z]+>/);
    expectExactSpans(masked);
    const removed = await parseFixture({ mode: 'fast', replaceStyle: 'remove' });
    expect(removed.markdown).toContain('Questions go to  or to the team list .');
    expect(removed.markdown).toContain('db_password: \n');
    expectExactSpans(removed);
  });

  it('keeps spans exact with page markers and with blocks that redaction empties', async () => {
    const data = await parseFixture(
      { mode: 'aggressive', replaceStyle: 'remove' },
      { parsers: [{ type: 'pdf', blocks: true, pageMarkers: true }] },
    );
    expectExactSpans(data);
  });
});

describe('other formats', () => {
  it('redacts a CSV table cell by cell', async () => {
    const csv = 'name,email,phone,card\nLaura Bennett,laura@example.org,+44 20 7946 0958,4111 1111 1111 1111\n';
    const data = await parseDocument({ bytes: new TextEncoder().encode(csv), fileName: 'people.csv', options: optionsWith({ redactPII: true }) });
    expect(data.markdown).toContain('| <PERSON> | <EMAIL> | <PHONE> | <FINANCIAL> |');
  });

  it('redacts the warning too, which names the file', async () => {
    const html = '<html><body><p>Salary review.</p></body></html>';
    const fileName = 'Laura Bennett salary.pdf';
    const plain = await parseDocument({ bytes: new TextEncoder().encode(html), fileName, options: optionsWith({}) });
    expect(plain.warning).toContain('Laura Bennett');
    const data = await parseDocument({ bytes: new TextEncoder().encode(html), fileName, options: optionsWith({ redactPII: true }) });
    expect(data.warning).toContain('<PERSON> salary.pdf');
  });

  it('redacts a DOCX body, its table and its core properties', async () => {
    const bytes = makeDocx({
      body: paragraph('Minutes taken by Dr. Helen Mirza.') + table([['Contact', 'Number'], ['Laura Bennett', '+33 6 12 34 56 78']], 1),
      core: coreXml({ 'dc:title': 'Minutes', 'dc:creator': 'Helen Mirza' }),
    });
    const data = await parseDocument({
      bytes,
      fileName: 'minutes.docx',
      options: optionsWith({ redactPII: { replaceStyle: 'tag' }, parsers: [{ type: 'pdf', blocks: true }] }),
    });
    expect(data.markdown).toContain('Minutes taken by Dr. <PERSON>.');
    expect(data.markdown).toContain('| <PERSON> | <PHONE> |');
    expect(JSON.stringify(data)).not.toMatch(/Mirza|Bennett|12 34 56/);
  });
});
