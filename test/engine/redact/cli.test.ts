/**
 * Redaction from the command line (the built CLI): the flags build the `redactPII` object a remote API receives and
 * docmill leaves the API's answer as it is (it never redacts twice); `docmill run --redact-pii` on the local engine
 * leaves no labelled piece of personal data in any output file.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../../helpers/cli-workspace.js';
import { docmillEnv, listFiles, runDocmill, SHARED_REDIS_URL } from '../../helpers/docmill-cli.js';
import { startHandlerServer, type HandlerServer } from '../../helpers/loopback-servers.js';
import { DOCUMENT_PATH, LABELS, labelsFoundBy } from './pii-fixture.js';

let home: string;
let work: string;
let queue: string;

const workspace = useCliWorkspace({ queue: true });

beforeEach(() => {
  ({ home, src: work, queue } = workspace);
});

describe('docmill parse against a remote API', () => {
  let server: HandlerServer;
  let url: string;
  const bodies: string[] = [];
  const answer = 'Call Laura Bennett on +44 20 7946 0958 or write to laura@example.org.';

  beforeAll(async () => {
    server = await startHandlerServer((request) => {
      bodies.push(request.text);
      return { status: 200, json: { success: true, data: { markdown: answer, metadata: { contentType: 'text/html' } } } };
    });
    url = server.url;
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends the redaction flags as redactPII and prints the answer untouched', async () => {
    await writeFile(join(work, 'contact.html'), '<p>Call Laura Bennett.</p>');
    const result = await runDocmill(
      ['parse', join(work, 'contact.html'), '--api-url', url, '--redact-pii', 'aggressive', '--redact-entities', 'email,person', '--redact-style', 'mask'],
      docmillEnv({ home, apiKey: 'dm-redact-key' }),
    );
    expect(result.code, result.stderr).toBe(0);
    const options = /name="options"\r\nContent-Type: application\/json\r\n\r\n(.*)\r\n/.exec(bodies.at(-1) ?? '')?.[1];
    expect(JSON.parse(options ?? '{}')).toMatchObject({
      redactPII: { mode: 'aggressive', entities: ['EMAIL', 'PERSON'], replaceStyle: 'mask' },
    });
    expect(result.stdout).toBe(`${answer}\n`);
  });
});

describe('docmill parse on the local engine', () => {
  it('--redact-pii alone applies the defaults; a bad style is refused before parsing', async () => {
    await writeFile(join(work, 'contact.html'), '<p>Call Laura Bennett on +44 20 7946 0958.</p>');
    const result = await runDocmill(['parse', join(work, 'contact.html'), '--redact-pii'], docmillEnv({ home }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Call <PERSON> on <PHONE>.\n');
    const bad = await runDocmill(['parse', join(work, 'contact.html'), '--redact-style', 'blur'], docmillEnv({ home }));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('redactPII.replaceStyle');
  });
});

describe('docmill run --redact-pii', () => {
  it('leaves no labelled piece of personal data in any output file (markdown, json, pages, blocks)', async () => {
    const src = join(work, 'src');
    const out = join(work, 'out');
    await mkdir(src, { recursive: true });
    await copyFile(DOCUMENT_PATH, join(src, 'incident-report.html'));
    const people = 'name,email,phone\nLaura Bennett,laura@example.org,+44 20 7946 0958\n';
    await writeFile(join(src, 'people.csv'), people);
    const result = await runDocmill(
      ['run', src, '--out', out, '--queue', queue, '--redact-pii', 'aggressive', '--pages', '--blocks', '--formats', 'markdown,summary,links,html'],
      docmillEnv({ home, redisUrl: SHARED_REDIS_URL }),
      120_000,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/2 converted/);
    const files = (await listFiles(out)).filter((path) => !path.startsWith('_docmill/redis'));
    const outputs = await Promise.all(files.map(async (path) => ({ path, text: await readFile(join(out, path), 'utf8') })));
    expect(outputs.some(({ path }) => path.endsWith('.md'))).toBe(true);
    expect(outputs.some(({ text }) => text.includes('"markdownSpan"'))).toBe(true);
    const secrets = [...labelsFoundBy('aggressive').map((label) => label.text), 'Laura Bennett', 'laura@example.org', '+44 20 7946 0958'];
    for (const { path, text } of outputs) {
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${path}`).toBe(false);
    }
    const markdown = outputs.find(({ path }) => path.startsWith('incident-report') && path.endsWith('.md'))?.text ?? '';
    for (const lookalike of LABELS.lookalikes) expect(markdown, lookalike).toContain(lookalike);
  });
});
