import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { optionsFromFlags } from '../../../src/cli/parse-flags.js';
import { parseOptionsSchema } from '../../../src/contract/options.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-files.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('redaction flags (parse, run, watch, enqueue, worker)', () => {
  it('--redact-pii alone asks for the defaults; with a value it sets the mode', async () => {
    expect(await optionsFromFlags({ redactPii: true })).toEqual({ redactPII: true });
    expect(parseOptionsSchema.parse(await optionsFromFlags({ redactPii: 'fast' })).redactPII).toEqual({
      mode: 'fast',
      entities: ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'],
      replaceStyle: 'tag',
    });
  });

  it('entities (any case) and a style imply redaction and override an --options file field by field', async () => {
    const file = join(dir, 'options.json');
    await writeFile(file, JSON.stringify({ redactPII: { mode: 'aggressive', replaceStyle: 'tag' }, onlyMainContent: false }));
    const options = await optionsFromFlags({ options: file, redactEntities: 'email, Phone', redactStyle: 'remove' });
    expect(options).toEqual({
      onlyMainContent: false,
      redactPII: { mode: 'aggressive', entities: ['EMAIL', 'PHONE'], replaceStyle: 'remove' },
    });
  });

  it('without a redaction flag, the options file decides', async () => {
    const file = join(dir, 'options.json');
    await writeFile(file, JSON.stringify({ redactPII: { mode: 'fast' } }));
    expect(await optionsFromFlags({ options: file })).toEqual({ redactPII: { mode: 'fast' } });
    expect(await optionsFromFlags({})).toEqual({});
  });
});
