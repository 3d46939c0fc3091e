import { describe, expect, it } from 'vitest';
import type { Redaction } from '../../../src/contract/options.js';
import { DEFAULT_REDACTION } from '../../../src/engine/redact/entities.js';
import { createTextRedactor } from '../../../src/engine/redact/text-redactor.js';

async function redactor(settings: Partial<Redaction> = {}): Promise<(text: string) => string> {
  return createTextRedactor({ ...DEFAULT_REDACTION, ...settings });
}

describe('e-mail addresses', () => {
  it('replaces addresses with sub-addressing and sub-domains, and leaves handles and file names alone', async () => {
    const redact = await redactor({ mode: 'fast' });
    expect(redact('Write to ana.lopez+tax@mail.example.co.uk today.')).toBe('Write to <EMAIL> today.');
    expect(redact('Ping @ana on chat, see logo@2x.png')).toBe('Ping @ana on chat, see logo@2x.png');
  });
});

describe('phone numbers', () => {
  it('finds international and national formats of several countries', async () => {
    const redact = await redactor({ mode: 'fast' });
    expect(redact('Call +44 20 7946 0958 or (212) 555-0147.')).toBe('Call <PHONE> or <PHONE>.');
    expect(redact('Büro: 030 901820, mobile 06 12 34 56 78')).toBe('Büro: <PHONE>, mobile <PHONE>');
  });

  it('leaves dates, versions, ISBNs, order numbers and ids that a phone parser would accept', async () => {
    const redact = await redactor({ mode: 'fast' });
    const text = 'On 2023-11-15 (or 15.11.2023) v10.2.3 shipped; ISBN 978-3-16-148410-0, order 20231115123, id 4930901820-a.';
    expect(redact(text)).toBe(text);
  });

  it('takes a bare digit run only in aggressive mode and only after a phone word', async () => {
    const text = 'Tel: 02079460958, order 02079460958';
    expect((await redactor({ mode: 'accurate' }))(text)).toBe(text);
    expect((await redactor({ mode: 'aggressive' }))(text)).toBe('Tel: <PHONE>, order 02079460958');
  });
});

describe('payment cards and IBANs', () => {
  it('takes Luhn-valid card numbers in their printed groupings and refuses a failed check digit', async () => {
    const redact = await redactor({ mode: 'fast' });
    expect(redact('card 4111 1111 1111 1111, amex 3782-822463-10005')).toBe('card <FINANCIAL>, amex <FINANCIAL>');
    expect(redact('card 4111 1111 1111 1112')).toBe('card 4111 1111 1111 1112');
  });

  it('takes a Luhn-valid run without an issuer prefix only in aggressive mode', async () => {
    const text = 'ref 1000000000000008';
    expect((await redactor({ mode: 'fast' }))(text)).toBe(text);
    expect((await redactor({ mode: 'aggressive' }))(text)).toBe('ref <FINANCIAL>');
  });

  it('checks IBANs with mod 97 and the country length, spaced or compact', async () => {
    const redact = await redactor({ mode: 'fast' });
    expect(redact('IBAN FR14 2004 1010 0505 0001 3M02 606 EUR')).toBe('IBAN <FINANCIAL> EUR');
    expect(redact('IBAN NL91ABNA0417164300.')).toBe('IBAN <FINANCIAL>.');
    expect(redact('IBAN DE89 3704 0044 0532 0130 01')).toBe('IBAN DE89 3704 0044 0532 0130 01');
  });
});

describe('secrets', () => {
  it.each([
    ['AWS', 'ASIAY34FZKBOKMUTVV7A'],
    ['GitHub OAuth', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
    ['GitHub fine-grained', 'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRS'],
    ['Slack', 'xoxp-1234567890-0987654321-abcdefABCDEF'],
    ['Stripe restricted', 'rk_live_4eC39HqLyjWDarjtT1zdp7dc'],
    ['OpenAI', 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['Anthropic', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv_wxyz-0123'],
  ])('replaces a %s key wherever it stands', async (_provider, key) => {
    expect((await redactor({ mode: 'fast' }))(`the key ${key} leaked`)).toBe('the key <SECRET> leaked');
  });

  it('replaces a private key block whole, and the lines of one cut short', async () => {
    const redact = await redactor({ mode: 'fast' });
    const block = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----';
    expect(redact(`before\n${block}\nafter`)).toBe('before\n<SECRET>\nafter');
    expect(redact('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n\nThe rest was lost.')).toBe('<SECRET>\n\nThe rest was lost.');
  });

  it('takes three dotted base64url parts only when the first is a JWT header', async () => {
    const redact = await redactor({ mode: 'fast' });
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz';
    expect(redact(`Bearer ${jwt}`)).toBe('Bearer <SECRET>');
    const notJwt = 'eyJ0eXBlIjoibm90ZSJ9.c2Vjb25kLXBhcnQ.dGhpcmQtcGFydA';
    expect(redact(`value ${notJwt}`)).toBe(`value ${notJwt}`);
  });

  it('replaces the value of password-like pairs and leaves prose and placeholders', async () => {
    const redact = await redactor({ mode: 'fast' });
    expect(redact('password=Hunter2!x and client_secret: "s3cr3t-Value"')).toBe('password=<SECRET> and client_secret: "<SECRET>"');
    const prose = 'Forgot your password: click here. token: ******** api_key=none';
    expect(redact(prose)).toBe(prose);
  });
});

describe('people and places', () => {
  it('accurate takes names with a known first name or a title and tagged places, not single words', async () => {
    const redact = await redactor({ mode: 'accurate' });
    expect(redact('Yesterday Prof. Okafor met Laura Bennett in Madrid. Alice agreed.')).toBe(
      'Yesterday Prof. <PERSON> met <PERSON> in <LOCATION>. Alice agreed.',
    );
    const plain = 'The Annual Report covers March. Apple and Amazon are customers.';
    expect(redact(plain)).toBe(plain);
  });

  it('fast never runs the model', async () => {
    const text = 'Laura Bennett lives in Madrid.';
    expect((await redactor({ mode: 'fast' }))(text)).toBe(text);
  });

  it('aggressive adds unknown capitalised names and street addresses with postcodes', async () => {
    const redact = await redactor({ mode: 'aggressive' });
    expect(redact('Signed by Tamsin Achterberg at 18 Rue de Rivoli, 75001 Paris.')).toBe('Signed by <PERSON> at <LOCATION>, <LOCATION>.');
    expect(redact('Our office: 10 Downing Street, London SW1A 2AA.')).toContain('<LOCATION>');
    expect(redact('Our office: 10 Downing Street, London SW1A 2AA.')).not.toMatch(/Downing|SW1A/);
  });
});

describe('links', () => {
  it('redacts link text and a mailto address but never the rest of a URL', async () => {
    const redact = await redactor({ mode: 'aggressive' });
    expect(redact('[Laura Bennett](https://example.com/Laura-Bennett/4111111111111) and [mail](mailto:laura@example.org)')).toBe(
      '[<PERSON>](https://example.com/Laura-Bennett/4111111111111) and [mail](mailto:<EMAIL>)',
    );
  });
});

describe('entities and replace styles', () => {
  const text = 'Laura Bennett, laura@example.org, +44 20 7946 0958, card 4111 1111 1111 1111, key AKIAIOSFODNN7EXAMPLE, Madrid';

  it('restricts redaction to the buckets asked for, and a card is not cut up as a phone number', async () => {
    const redact = await redactor({ entities: ['EMAIL', 'PHONE'] });
    expect(redact(text)).toBe('Laura Bennett, <EMAIL>, <PHONE>, card 4111 1111 1111 1111, key AKIAIOSFODNN7EXAMPLE, Madrid');
    expect((await redactor({ entities: ['PERSON', 'LOCATION'] }))(text)).toBe(
      '<PERSON>, laura@example.org, +44 20 7946 0958, card 4111 1111 1111 1111, key AKIAIOSFODNN7EXAMPLE, <LOCATION>',
    );
    expect((await redactor({ entities: ['FINANCIAL', 'SECRET'] }))(text)).toBe(
      'Laura Bennett, laura@example.org, +44 20 7946 0958, card <FINANCIAL>, key <SECRET>, Madrid',
    );
  });

  it('masks each character with * or removes the span', async () => {
    expect((await redactor({ replaceStyle: 'mask', entities: ['EMAIL'] }))('to laura@example.org.')).toBe(`to ${'*'.repeat('laura@example.org'.length)}.`);
    expect((await redactor({ replaceStyle: 'remove', entities: ['EMAIL'] }))('to laura@example.org.')).toBe('to .');
  });
});

describe('long and hostile input', () => {
  it('finds every name in a single line far longer than one model chunk', async () => {
    const sentence = 'Dr. Helen Mirza met Robert Lang in Geneva. ';
    const redacted = (await redactor({ entities: ['PERSON'] }))(sentence.repeat(300));
    expect(redacted.match(/<PERSON>/g)).toHaveLength(600);
    expect(redacted).not.toMatch(/Mirza|Lang/);
  });

  it('gets through a megabyte-long token and a long digit run without blowing up', async () => {
    const redact = await redactor({ mode: 'aggressive' });
    const started = Date.now();
    expect(redact(`x ${'A'.repeat(1_000_000)} y`)).toHaveLength(1_000_004);
    expect(redact('7'.repeat(200_000))).toBe('7'.repeat(200_000));
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
