import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import pino from 'pino';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
}

// Compose resolves YAML merge keys (<<: *anchor); the yaml package does so only when asked.
const compose = parse(await readFile(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};

describe('docker-compose.yml (no Docker engine here: checked by construction)', () => {
  it('every service has an image or a build', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.image ?? service.build, name).toBeTruthy();
    }
  });

  it('depends_on names existing services, and healthy conditions have a healthcheck', () => {
    for (const service of Object.values(compose.services)) {
      const dependencies = service.depends_on ?? {};
      const entries = Array.isArray(dependencies) ? dependencies.map((name) => [name, {}] as const) : Object.entries(dependencies);
      for (const [dependency, spec] of entries) {
        expect(Object.keys(compose.services)).toContain(dependency);
        if ('condition' in spec && spec.condition === 'service_healthy') {
          expect((compose.services[dependency] as { healthcheck?: unknown }).healthcheck).toBeTruthy();
        }
      }
    }
  });

  it('named volumes are declared and bind-mounted config files exist', async () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const [source] = volume.split(':');
        if (!source) continue;
        if (source.startsWith('./')) {
          if (source.includes('.')) {
            const path = new URL(`../../${source.slice(2)}`, import.meta.url);
            if (/\.[a-z]+$/.test(source)) await expect(readFile(path)).resolves.toBeTruthy();
          }
        } else {
          expect(Object.keys(compose.volumes ?? {})).toContain(source);
        }
      }
    }
  });

  it('every docmill command in the file exists, with options the command accepts', () => {
    const program = buildProgram(
      { stdout: process.stdout, stderr: process.stderr, env: {}, logger: pino({ level: 'silent' }), signal: new AbortController().signal, setExitCode: () => undefined },
      process.stdout,
      process.stderr,
    );
    const commands = new Map<string, Command>(program.commands.map((command) => [command.name(), command]));
    const invoked = Object.entries(compose.services).filter(([, service]) => service.build && Array.isArray(service.command));
    expect(invoked.length).toBeGreaterThanOrEqual(2);
    for (const [name, service] of invoked) {
      const [subcommand, ...args] = service.command as string[];
      const command = commands.get(subcommand ?? '');
      expect(command, `${name}: docmill ${subcommand}`).toBeDefined();
      const known = new Set(command?.options.flatMap((option) => [option.long, option.short]).filter(Boolean));
      for (const arg of args.filter((value) => value.startsWith('-'))) expect(known, `${name}: ${arg}`).toContain(arg);
    }
  });

  it('services that reach the parse server point at it by its service name and port', () => {
    const parse = compose.services.parse;
    expect(parse?.command).toContain('3002');
    const url = (compose as unknown as { 'x-docmill': { environment: Record<string, string> } })['x-docmill'].environment.DOCMILL_API_URL;
    expect(url).toContain('http://parse:3002');
  });

  it('Redis runs with noeviction, as BullMQ requires', async () => {
    const conf = await readFile(new URL('../../config/redis.conf', import.meta.url), 'utf8');
    expect(conf).toMatch(/^maxmemory-policy noeviction$/m);
  });
});
