import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

describe('package-lock.json', () => {
  it('has an entry for every optional dependency, or `npm ci` (what CI runs) refuses it', async () => {
    const lock = JSON.parse(await readFile(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const missing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(name);
      }
    }
    expect(missing, 'run `node scripts/complete-lockfile.mjs` after npm install').toEqual([]);
  });
});
