/**
 * LocalDirSource.list() and open() on a real file system: names with spaces and Unicode, selection, temporary
 * files, symlinks (inside, outside, loops, dangling), ignored subtrees, change tokens.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { text } from 'node:stream/consumers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceListError, SourceReadError } from '../../src/sources/errors.js';
import { LocalDirSource, type LocalDirSourceOptions } from '../../src/sources/local-dir-source.js';
import type { ListEntry, SourceFile } from '../../src/sources/source.js';
import { TEMP_MARKER } from '../../src/common/atomic-file.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../helpers/temp-files.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await makeTempDir();
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
});

afterEach(async () => {
  await removeTempDir(base);
});

async function put(relativePath: string, content = `content of ${relativePath}`): Promise<string> {
  const path = join(root, relativePath);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

async function listAll(options: Partial<LocalDirSourceOptions> = {}): Promise<ListEntry[]> {
  const source = new LocalDirSource({ location: root, ...options });
  const entries: ListEntry[] = [];
  for await (const entry of source.list()) entries.push(entry);
  return entries;
}

/** `file:<path>` or `skipped:<path>:<reason>`, in listing order. */
function summarise(entries: ListEntry[]): string[] {
  return entries.map((entry) =>
    entry.kind === 'file' ? `file:${entry.file.relativePath}` : `skipped:${entry.relativePath}:${entry.reason}`,
  );
}

function files(entries: ListEntry[]): SourceFile[] {
  return entries.flatMap((entry) => (entry.kind === 'file' ? [entry.file] : []));
}

function fileNamed(entries: ListEntry[], relativePath: string): SourceFile {
  const file = files(entries).find((candidate) => candidate.relativePath === relativePath);
  if (!file) throw new Error(`${relativePath} was not listed`);
  return file;
}

describe('LocalDirSource.list', () => {
  it('lists a nested tree depth-first, sorted by name, with spaces, Unicode and hidden files', async () => {
    await put('Berichte/Q1 Übersicht.pdf');
    await put('Berichte/Q2 Übersicht.PDF');
    await put('日本/報告.docx');
    await put('.hidden/notes.docx');
    await put('.dotfile.csv');
    await put('a/b/c/deep.html');
    await put('top.epub');

    const entries = await listAll();

    expect(summarise(entries)).toEqual([
      'file:.dotfile.csv',
      'file:.hidden/notes.docx',
      'file:Berichte/Q1 Übersicht.pdf',
      'file:Berichte/Q2 Übersicht.PDF',
      'file:a/b/c/deep.html',
      'file:top.epub',
      'file:日本/報告.docx',
    ]);
    const report = fileNamed(entries, '日本/報告.docx');
    expect(fileURLToPath(report.uri)).toBe(join(root, '日本', '報告.docx'));
    expect(report.uri.startsWith('file:///')).toBe(true);
    expect(report.size).toBe(Buffer.byteLength('content of 日本/報告.docx'));
    expect(report.changeToken).toMatch(/^\d+-\d+$/);
  });

  it('reports unsupported and temporary files as skipped', async () => {
    await put('notes.txt');
    await put('image.png');
    await put('no-extension');
    await put(`docs/${TEMP_MARKER}report.pdf.a1b2c3`);
    await put('docs/report.pdf');

    expect(summarise(await listAll())).toEqual([
      `skipped:docs/${TEMP_MARKER}report.pdf.a1b2c3:temporary`,
      'file:docs/report.pdf',
      'skipped:image.png:unsupported',
      'skipped:no-extension:unsupported',
      'skipped:notes.txt:unsupported',
    ]);
  });

  it('applies include and exclude globs to the relative path, dot files included', async () => {
    await put('keep/a.pdf');
    await put('keep/.b.pdf');
    await put('keep/c.docx');
    await put('drafts/d.pdf');
    await put('top.pdf');

    const included = await listAll({ selection: { include: ['keep/**/*.pdf'] } });
    expect(summarise(included)).toEqual([
      'skipped:drafts:excluded', // no include glob reaches below it: left out whole, not entered
      'file:keep/.b.pdf',
      'file:keep/a.pdf',
      'skipped:keep/c.docx:excluded',
      'skipped:top.pdf:excluded',
    ]);

    const excluded = await listAll({ selection: { exclude: ['**/*.docx', 'top.pdf'] } });
    expect(summarise(excluded)).toEqual([
      'file:drafts/d.pdf',
      'file:keep/.b.pdf',
      'file:keep/a.pdf',
      'skipped:keep/c.docx:excluded',
      'skipped:top.pdf:excluded',
    ]);
  });

  it('skips a wholly excluded directory with one entry instead of entering it', async () => {
    await put('node_modules/pkg/readme.pdf');
    await put('node_modules/pkg/other.pdf');
    await put('src/node_modules/x.pdf');
    await put('src/doc.pdf');

    const entries = await listAll({ selection: { exclude: ['**/node_modules/**'] } });

    expect(summarise(entries)).toEqual([
      'skipped:node_modules:excluded',
      'file:src/doc.pdf',
      'skipped:src/node_modules:excluded',
    ]);
    expect(entries[0]).toMatchObject({ detail: 'directory' });
  });

  it('follows symlinks inside the root under their own path, and skips links leaving the root', async () => {
    await put('Berichte/Q1 Übersicht.pdf');
    await put('日本/報告.docx');
    await writeFile(join(outside, 'secret.pdf'), 'secret');
    await mkdir(join(outside, 'folder'));
    await writeFile(join(outside, 'folder', 'inner.pdf'), 'inner');
    await symlink(join(root, 'Berichte', 'Q1 Übersicht.pdf'), join(root, 'alias.pdf'));
    await symlink('日本', join(root, 'linked-dir')); // relative target
    await symlink(join(outside, 'secret.pdf'), join(root, 'outside-file.pdf'));
    await symlink(join(outside, 'folder'), join(root, 'outside-dir'));
    await symlink('../outside/secret.pdf', join(root, 'relative-outside.pdf'));

    const entries = await listAll();

    expect(summarise(entries)).toEqual([
      'file:Berichte/Q1 Übersicht.pdf',
      'file:alias.pdf',
      'file:linked-dir/報告.docx',
      'skipped:outside-dir:symlink-outside-root',
      'skipped:outside-file.pdf:symlink-outside-root',
      'skipped:relative-outside.pdf:symlink-outside-root',
      'file:日本/報告.docx',
    ]);
    const alias = fileNamed(entries, 'alias.pdf');
    expect(fileURLToPath(alias.uri)).toBe(join(root, 'alias.pdf'));
    expect(alias.size).toBe(fileNamed(entries, 'Berichte/Q1 Übersicht.pdf').size);
  });

  it('skips symlink loops without hanging, and reports dangling and self-referencing links as such', async () => {
    await put('a/doc.pdf');
    await symlink('..', join(root, 'a', 'up')); // back to the root
    await symlink('.', join(root, 'a', 'self')); // to its own directory
    await mkdir(join(root, 'b'));
    await symlink('../a', join(root, 'b', 'to-a')); // a sibling: followed, not a loop
    await symlink('missing.pdf', join(root, 'dangling.pdf'));
    await symlink('ping.pdf', join(root, 'pong.pdf'));
    await symlink('pong.pdf', join(root, 'ping.pdf'));

    const entries = await listAll();

    expect(summarise(entries)).toEqual([
      'file:a/doc.pdf',
      'skipped:a/self:symlink-loop',
      'skipped:a/up:symlink-loop',
      'file:b/to-a/doc.pdf',
      'skipped:b/to-a/self:symlink-loop',
      'skipped:b/to-a/up:symlink-loop',
      'skipped:dangling.pdf:symlink-dangling',
      'skipped:ping.pdf:symlink-loop',
      'skipped:pong.pdf:symlink-loop',
    ]);
    expect(entries.find((entry) => entry.kind === 'skipped' && entry.relativePath === 'dangling.pdf')).toMatchObject({
      detail: 'ENOENT',
    });
    expect(entries.find((entry) => entry.kind === 'skipped' && entry.relativePath === 'ping.pdf')).toMatchObject({
      detail: 'ELOOP',
    });
  });

  it('does not list ignored subtrees, even ones created after the source, or reached through a link', async () => {
    await put('doc.pdf');
    await put('out/doc.pdf.md.pdf');
    await symlink('out', join(root, 'out-link'));

    const entries = await listAll({ ignorePaths: [join(root, 'out'), join(root, 'later')] });
    await put('later/x.pdf');
    const afterCreation = await listAll({ ignorePaths: [join(root, 'out'), join(root, 'later')] });

    expect(summarise(entries)).toEqual(['file:doc.pdf']);
    expect(summarise(afterCreation)).toEqual(['file:doc.pdf']);
  });

  it('lists everything when the ignored folder holds the root (the outputs of `run ./docs --out .` go beside it)', async () => {
    await put('doc.pdf');
    await put('sub/more.pdf');

    const entries = await listAll({ ignorePaths: [dirname(root), join(dirname(root), 'elsewhere')] });

    expect(summarise(entries).sort()).toEqual(['file:doc.pdf', 'file:sub/more.pdf']);
  });

  it("leaves out whole an earlier run's output folder and an output folder's records, but not a folder a user named _docmill", async () => {
    await put('doc.pdf');
    await put('md-v1/doc.pdf.md');
    await put('md-v1/_docmill/manifest.jsonl', '{}\n');
    await put('md-v1/_docmill/redis/appendonly.aof');
    await put('_docmill/records.jsonl', '{}\n'); // the source is itself an output folder
    await put('notes/_docmill/minutes.docx'); // a user's folder so named

    const entries = await listAll();

    expect(summarise(entries)).toEqual([
      'skipped:_docmill:docmill-output',
      'file:doc.pdf',
      'skipped:md-v1:docmill-output',
      'file:notes/_docmill/minutes.docx',
    ]);
  });

  it('reports a FIFO as not a regular file, without opening it', async (context) => {
    if (spawnSync('mkfifo', [join(root, 'pipe.pdf')]).status !== 0) context.skip();
    await put('doc.pdf');

    const entries = await listAll();

    expect(summarise(entries)).toEqual(['file:doc.pdf', 'skipped:pipe.pdf:unsupported']);
    expect(entries[1]).toMatchObject({ detail: 'not a regular file (fifo)' });
  });

  // Root reads a mode-000 folder, so as root this in-process check cannot show the behaviour; there
  // unreadable-as-other-user.test.ts checks the same listing in a child running as `nobody`.
  it.skipIf(process.getuid?.() === 0)('reports a directory it may not read as unreadable and goes on', async () => {
    await put('locked/doc.pdf');
    await put('open.pdf');
    await chmod(join(root, 'locked'), 0o000);
    try {
      expect(summarise(await listAll())).toEqual(['skipped:locked:unreadable', 'file:open.pdf']);
    } finally {
      await chmod(join(root, 'locked'), 0o755);
    }
  });

  it('fails with SOURCE_LIST_FAILED when the root is gone', async () => {
    const source = new LocalDirSource({ location: join(base, 'nowhere') });
    const error = await rejectionOf((async () => {
      for await (const _entry of source.list()) break;
    })());
    expect(error).toBeInstanceOf(SourceListError);
    expect(error).toMatchObject({ code: 'SOURCE_LIST_FAILED' });
  });

  it('changes the change token when a file is rewritten', async () => {
    const path = await put('doc.pdf', 'first version');
    await utimes(path, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00Z'));
    const before = fileNamed(await listAll(), 'doc.pdf');

    await writeFile(path, 'second version, longer');
    const after = fileNamed(await listAll(), 'doc.pdf');
    await writeFile(path, 'third version, longer!');
    await utimes(path, new Date('2024-01-02T00:00:00Z'), new Date('2024-01-02T00:00:00Z'));
    const sameSizeLater = fileNamed(await listAll(), 'doc.pdf');

    expect(before.changeToken).toBe(`${Date.parse('2024-01-01T00:00:00Z')}-13`);
    expect(after.changeToken).not.toBe(before.changeToken);
    expect(sameSizeLater.size).toBe(after.size);
    expect(sameSizeLater.changeToken).not.toBe(after.changeToken);
  });

  it('stops at an aborted signal', async () => {
    await put('a.pdf');
    await put('b.pdf');
    const controller = new AbortController();
    const source = new LocalDirSource({ location: root });
    const seen: ListEntry[] = [];
    const error = await rejectionOf((async () => {
      for await (const entry of source.list(controller.signal)) {
        seen.push(entry);
        controller.abort();
      }
    })());
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

describe('LocalDirSource.presence', () => {
  it('says whether a file once listed is there, gone, or not its to say', async () => {
    const kept = await put('sub dir/kept é.pdf');
    const gone = await put('gone.pdf');
    await rm(gone);
    const from = new LocalDirSource({ location: root });
    expect(await from.presence(pathToFileURL(kept).href)).toBe('present');
    expect(await from.presence(pathToFileURL(gone).href)).toBe('gone');
    expect(await from.presence(pathToFileURL(join(kept, 'below a file.pdf')).href)).toBe('gone');
    expect(await from.presence(pathToFileURL(join(outside, 'elsewhere.pdf')).href)).toBe('unknown');
    expect(await from.presence('s3://bucket/gone.pdf')).toBe('unknown');
  });
});

describe('LocalDirSource, names that are not UTF-8', () => {
  /** Makes `<root>/<bytes>` from Latin-1 text; false where the file system refuses such a name (EILSEQ). */
  async function putLatin1(latin1: string, content: string): Promise<boolean> {
    const path = Buffer.concat([Buffer.from(`${root}/`), Buffer.from(latin1, 'latin1')]);
    try {
      if (content === '/') await mkdir(path);
      else await writeFile(path, content);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EILSEQ') return false;
      throw error;
    }
  }

  it('lists, reads and finds each file under its own name, the bytes outside UTF-8 written %XX', async (context) => {
    // Two names Node would read alike (each byte as U+FFFD), a Latin-1 folder, and a UTF-8 name beside them.
    if (!(await putLatin1('bad\xff.pdf', 'the FF one'))) context.skip();
    await putLatin1('bad\xfe.pdf', 'the FE one');
    await putLatin1('Dossier \xe9t\xe9', '/');
    await putLatin1('Dossier \xe9t\xe9/R\xe9sum\xe9.pdf', 'the résumé');
    await put('Résumé.pdf', 'the UTF-8 one');

    const entries = await listAll();
    expect(summarise(entries)).toEqual(['file:Dossier %E9t%E9/R%E9sum%E9.pdf', 'file:Résumé.pdf', 'file:bad%FE.pdf', 'file:bad%FF.pdf']);
    const source = new LocalDirSource({ location: root });
    const read = async (relativePath: string): Promise<string> => text(await source.open(fileNamed(entries, relativePath)));
    expect(await read('bad%FF.pdf')).toBe('the FF one');
    expect(await read('bad%FE.pdf')).toBe('the FE one');
    expect(await read('Dossier %E9t%E9/R%E9sum%E9.pdf')).toBe('the résumé');
    expect(await read('Résumé.pdf')).toBe('the UTF-8 one');
    const small = await source.readSmall(fileNamed(entries, 'bad%FE.pdf'), 1024);
    expect(Buffer.from(small!).toString()).toBe('the FE one');

    const uri = fileNamed(entries, 'bad%FF.pdf').uri;
    expect(await source.presence(uri)).toBe('present');
    await rm(Buffer.concat([Buffer.from(`${root}/`), Buffer.from('bad\xff.pdf', 'latin1')]));
    expect(await source.presence(uri)).toBe('gone');
  });
});

describe('LocalDirSource.open', () => {
  it('streams the bytes of a listed file', async () => {
    await put('Berichte/Q1 Übersicht.pdf', 'the bytes of Q1');
    const source = new LocalDirSource({ location: root });
    const [file] = files(await listAll());

    expect(await text(await source.open(file!))).toBe('the bytes of Q1');
  });

  it('fails with SOURCE_UNREADABLE naming the file when it has gone or changed type', async () => {
    const path = await put('Berichte/Q1 Übersicht.pdf');
    const source = new LocalDirSource({ location: root });
    const [file] = files(await listAll());

    await rm(path);
    const gone = await rejectionOf(source.open(file!));
    await mkdir(path);
    const nowDirectory = await rejectionOf(source.open(file!));

    expect(gone).toBeInstanceOf(SourceReadError);
    expect(gone).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'missing', path: 'Berichte/Q1 Übersicht.pdf' });
    expect((gone as Error).message).toContain('Berichte/Q1 Übersicht.pdf');
    expect((gone as Error).message).toContain('ENOENT');
    expect(nowDirectory).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'not-a-file' });
  });

  it('hands over a small file in one piece, and none past the limit, grown since it was listed included', async () => {
    const path = await put('Berichte/Q1 Übersicht.pdf', 'the bytes of Q1');
    const source = new LocalDirSource({ location: root });
    const [file] = files(await listAll());

    expect(Buffer.from((await source.readSmall(file!, 64))!).toString()).toBe('the bytes of Q1');
    expect(await source.readSmall(file!, 8)).toBeUndefined();
    await writeFile(path, 'x'.repeat(200));
    expect(Buffer.from((await source.readSmall(file!, 200))!).toString()).toBe('x'.repeat(200));
    expect(await source.readSmall(file!, 199)).toBeUndefined();
    await rm(path);
    expect(await rejectionOf(source.readSmall(file!, 64))).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'missing' });
  });

  it('does not hang when the file was replaced by a FIFO', async (context) => {
    const path = await put('doc.pdf');
    const source = new LocalDirSource({ location: root });
    const [file] = files(await listAll());
    await rm(path);
    if (spawnSync('mkfifo', [path]).status !== 0) context.skip();

    expect(await rejectionOf(source.open(file!))).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'not-a-file' });
  });
});
