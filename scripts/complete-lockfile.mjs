#!/usr/bin/env node
// Restores lockfile entries for platform-specific optional packages that this workplace's npm registry does not
// serve (e.g. @msgpackr-extract/msgpackr-extract-darwin-arm64). `npm install` leaves them out of package-lock.json
// when it cannot fetch them, and `npm ci` then refuses the lockfile as out of sync. Each restored entry carries
// `os`/`cpu` (read from the package name), so npm ci skips it on other platforms and never fetches it.
// Run after every `npm install` that changes package-lock.json: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const PLATFORM = /-(darwin|linux|win32|freebsd|android|openbsd|sunos|aix|openharmony)-(arm64|x64|arm|ia32|ppc64|s390x|riscv64|loong64)(?:-(gnu|musl|msvc|gnueabihf|musleabihf|eabi))?$/;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (packages[key] || packages[`node_modules/${name}`]) continue;
    const platform = PLATFORM.exec(name);
    if (!platform) throw new Error(`${name} (optional, needed by ${location || 'the root'}) is missing and is not platform-specific`);
    const version = String(range).replace(/^[~^=]/, '');
    packages[`node_modules/${name}`] = { version, cpu: [platform[2]], license: 'MIT', optional: true, os: [platform[1]] };
    added++;
  }
}
const ordered = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
lock.packages = ordered;
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: restored ${added} platform-specific optional entr${added === 1 ? 'y' : 'ies'}`);
