import { readdir, readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import pino from 'pino';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  ports?: string[];
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

  it('named volumes are declared and bind-mounted config files and folders exist', async () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const [source] = volume.split(':');
        if (!source) continue;
        if (source.startsWith('./')) {
          if (source === './data') continue;
          const path = new URL(`../../${source.slice(2)}`, import.meta.url);
          const stats = await stat(path);
          if (/\.[a-z]+$/.test(source)) expect(stats.isFile(), source).toBe(true);
          else expect(stats.isDirectory(), source).toBe(true);
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

/** The container path a service mounts `source` (a path in the repository, `./…`) at. */
function mountTarget(service: ComposeService | undefined, source: string): string | undefined {
  for (const volume of service?.volumes ?? []) {
    const [from, to] = volume.split(':');
    if (from === source) return to;
  }
  return undefined;
}

/** The value following `flag` in a service's command. */
function flagValue(service: ComposeService | undefined, flag: string): string | undefined {
  const command = Array.isArray(service?.command) ? service.command : [];
  const index = command.indexOf(flag);
  return index >= 0 ? command[index + 1] : undefined;
}

async function repoYaml<T>(path: string): Promise<T> {
  return parse(await readFile(new URL(`../../${path}`, import.meta.url), 'utf8')) as T;
}

describe('the monitoring services of docker-compose.yml', () => {
  interface PrometheusConfig {
    rule_files?: string[];
    scrape_configs: Array<{
      job_name: string;
      static_configs?: Array<{ targets: string[] }>;
      dns_sd_configs?: Array<{ names: string[]; type: string; port: number }>;
    }>;
  }

  it('Prometheus loads its config and alert rules from the files the repository holds, mounted side by side', async () => {
    const prometheus = compose.services.prometheus;
    expect(mountTarget(prometheus, './config/prometheus/prometheus.yml')).toBe('/etc/prometheus/prometheus.yml');
    const config = await repoYaml<PrometheusConfig>('config/prometheus/prometheus.yml');
    expect(config.rule_files?.length).toBeGreaterThan(0);
    for (const ruleFile of config.rule_files ?? []) {
      // Prometheus resolves rule files against the config file's folder: in the repository and in the container.
      expect(ruleFile.startsWith('/')).toBe(false);
      await expect(stat(new URL(`../../config/prometheus/${ruleFile}`, import.meta.url))).resolves.toBeTruthy();
      expect(mountTarget(prometheus, `./config/prometheus/${ruleFile}`)).toBe(`/etc/prometheus/${ruleFile}`);
    }
  });

  it('every scrape target is a service serving its metrics on that port, and every docmill --metrics-port is scraped', async () => {
    const config = await repoYaml<PrometheusConfig>('config/prometheus/prometheus.yml');
    const scraped = new Set<string>();
    for (const job of config.scrape_configs) {
      const targets = [
        ...(job.static_configs ?? []).flatMap((entry) => entry.targets),
        ...(job.dns_sd_configs ?? []).flatMap((entry) => entry.names.map((name) => `${name}:${entry.port}`)),
      ];
      expect(targets.length, job.job_name).toBeGreaterThan(0);
      for (const target of targets) {
        const [host, port] = target.split(':');
        const service = compose.services[host ?? ''];
        expect(service, `${job.job_name}: ${target}`).toBeDefined();
        expect(flagValue(service, '--metrics-port'), `${job.job_name}: ${target}`).toBe(port);
        scraped.add(host ?? '');
      }
    }
    for (const [name, service] of Object.entries(compose.services)) {
      if (flagValue(service, '--metrics-port') !== undefined) expect(scraped, name).toContain(name);
    }
  });

  it('a scalable worker publishes no fixed host port (replicas would clash)', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.build || !Array.isArray(service.command) || service.command[0] !== 'worker') continue;
      for (const port of service.ports ?? []) expect(port, name).not.toContain(':');
    }
  });

  it('Grafana is provisioned with the Prometheus of this file and the dashboard folder it mounts', async () => {
    const grafana = compose.services.grafana;
    expect(mountTarget(grafana, './config/grafana/provisioning')).toBe('/etc/grafana/provisioning');
    const datasources = await repoYaml<{ datasources: Array<{ type: string; url: string; uid: string }> }>(
      'config/grafana/provisioning/datasources/prometheus.yml',
    );
    const prometheusSource = datasources.datasources.find((source) => source.type === 'prometheus');
    expect(prometheusSource?.url).toBe('http://prometheus:9090');
    expect(compose.services.prometheus?.ports).toContain('9090:9090');

    const providers = await repoYaml<{ providers: Array<{ type: string; options: { path: string } }> }>(
      'config/grafana/provisioning/dashboards/docmill.yml',
    );
    const dashboardsPath = providers.providers[0]?.options.path;
    expect(dashboardsPath).toBe(mountTarget(grafana, './config/grafana/dashboards'));
    const dashboards = await readdir(new URL('../../config/grafana/dashboards', import.meta.url));
    expect(dashboards).toContain('docmill.json');
    const dashboard = JSON.parse(await readFile(new URL('../../config/grafana/dashboards/docmill.json', import.meta.url), 'utf8')) as {
      panels: Array<{ datasource?: { uid?: string } }>;
    };
    // Every panel queries the provisioned data source by its uid.
    for (const panel of dashboard.panels) if (panel.datasource) expect(panel.datasource.uid).toBe(prometheusSource?.uid);
  });
});

describe('the s3 profile of docker-compose.yml', () => {
  const s3Services = Object.entries(compose.services).filter(([, service]) => service.profiles?.includes('s3'));

  it('reads s3:// and writes s3:// in the bucket the one-shot mc service creates, through the MinIO endpoint', () => {
    expect(s3Services.length).toBeGreaterThanOrEqual(1);
    const created = (compose.services['minio-init']?.command as string[]).at(-1)?.split('/')[1];
    expect(created).toBe('docmill');
    const reads = s3Services.some(([, service]) => (service.command as string[])[1]?.startsWith(`s3://${created}/`));
    expect(reads).toBe(true);
    for (const [name, service] of s3Services) {
      expect(flagValue(service, '--out'), name).toMatch(new RegExp(`^s3://${created}/`));
      expect(flagValue(service, '--s3-endpoint'), name).toBe('http://minio:9000');
      expect(Object.keys(service.environment ?? {}), name).toEqual(expect.arrayContaining(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']));
      const dependencies = service.depends_on as Record<string, { condition?: string }>;
      expect(dependencies['minio-init']?.condition, name).toBe('service_completed_successfully');
      // Their own queue: the default workers write to /data/out and must not take these documents.
      expect(flagValue(service, '--queue'), name).toBe('s3');
    }
  });

  it('gives the mc client the MinIO root credentials the S3 services use', () => {
    const minio = compose.services.minio?.environment ?? {};
    const mcHost = Object.entries(compose.services['minio-init']?.environment ?? {}).find(([key]) => key.startsWith('MC_HOST_'))?.[1];
    expect(mcHost).toBe(`http://${minio.MINIO_ROOT_USER}:${minio.MINIO_ROOT_PASSWORD}@minio:9000`);
    for (const [name, service] of s3Services) {
      expect(service.environment?.AWS_ACCESS_KEY_ID, name).toBe(minio.MINIO_ROOT_USER);
      expect(service.environment?.AWS_SECRET_ACCESS_KEY, name).toBe(minio.MINIO_ROOT_PASSWORD);
    }
  });
});

describe('the events profile of docker-compose.yml (MinIO → RabbitMQ → docmill watch --events amqp://…)', () => {
  interface Definitions {
    users: Array<{ name: string }>;
    exchanges: Array<{ name: string; type: string }>;
    queues: Array<{ name: string; durable: boolean; arguments: Record<string, string> }>;
    bindings: Array<{ source: string; destination: string; destination_type: string }>;
  }
  const services = compose.services;
  const watch = services['watch-events'];
  const minio = services['minio-events'];
  const eventsUrl = new URL(flagValue(watch, '--events') ?? 'invalid:');

  it('runs every service of the chain in the profile, each started after what it needs', () => {
    for (const name of ['rabbitmq', 'minio-events', 'minio-events-bucket', 'minio-events-notify', 'watch-events']) {
      expect(services[name]?.profiles, name).toEqual(['events']);
    }
    const needs = (name: string) => Object.keys((services[name]?.depends_on ?? {}) as Record<string, unknown>);
    expect(needs('minio-events')).toContain('rabbitmq');
    expect(needs('minio-events-notify')).toContain('minio-events-bucket');
    expect(needs('watch-events')).toEqual(expect.arrayContaining(['rabbitmq', 'minio-events-notify', 'redis', 'parse']));
  });

  it('has MinIO publish to the exchange that RabbitMQ binds to the queue docmill consumes, as the user docmill reads with', async () => {
    const env = minio?.environment ?? {};
    const target = Object.keys(env).find((key) => key.startsWith('MINIO_NOTIFY_AMQP_ENABLE_'))?.slice('MINIO_NOTIFY_AMQP_ENABLE_'.length);
    expect(target).toBeDefined();
    const minioUrl = new URL(env[`MINIO_NOTIFY_AMQP_URL_${target}`] ?? 'invalid:');
    const exchange = env[`MINIO_NOTIFY_AMQP_EXCHANGE_${target}`];
    const definitions = JSON.parse(await readFile(new URL('../../config/rabbitmq/definitions.json', import.meta.url), 'utf8')) as Definitions;
    const conf = await readFile(new URL('../../config/rabbitmq/rabbitmq.conf', import.meta.url), 'utf8');
    expect(conf).toMatch(/^load_definitions = \/etc\/rabbitmq\/definitions\.json$/m);
    expect(mountTarget(services.rabbitmq, './config/rabbitmq/definitions.json')).toBe('/etc/rabbitmq/definitions.json');

    expect(definitions.exchanges.find((found) => found.name === exchange)?.type).toBe(env[`MINIO_NOTIFY_AMQP_EXCHANGE_TYPE_${target}`]);
    const consumed = eventsUrl.searchParams.get('queue');
    expect(definitions.bindings).toContainEqual(expect.objectContaining({ source: exchange, destination: consumed, destination_type: 'queue' }));
    const queue = definitions.queues.find((found) => found.name === consumed);
    expect(queue?.durable).toBe(true);
    // An unreadable message goes to a dead-letter queue that exists, not back to docmill.
    expect(definitions.queues.map((found) => found.name)).toContain(queue?.arguments['x-dead-letter-routing-key']);
    for (const url of [minioUrl, eventsUrl]) {
      expect(url.protocol).toBe('amqp:');
      expect(url.hostname).toBe('rabbitmq');
      expect(definitions.users.map((user) => user.name)).toContain(url.username);
    }
    expect(eventsUrl.password).toBe(minioUrl.password);
    // The notification goes to that target, for the prefix the watch reads.
    const notify = services['minio-events-notify']?.command as string[];
    expect(notify.slice(0, 2)).toEqual(['event', 'add']);
    expect(notify).toContain(`arn:minio:sqs::${target}:amqp`);
    const source = (watch?.command as string[])[1] ?? '';
    const [, bucket, prefix] = /^s3:\/\/([^/]+)\/(.*)$/.exec(source) ?? [];
    expect(notify[2]).toBe(`minio/${bucket}`);
    expect(notify[notify.indexOf('--prefix') + 1]).toBe(`${prefix}/`);
    expect(services['minio-events-bucket']?.command).toEqual(['mb', '--ignore-existing', `minio/${bucket}`]);
  });

  it('reads and writes that MinIO with its root credentials, on a queue of its own, deleting the outputs of removed documents', () => {
    expect(flagValue(watch, '--s3-endpoint')).toBe('http://minio-events:9000');
    expect(flagValue(watch, '--queue')).toBe('events');
    expect(flagValue(watch, '--removed')).toBe('delete');
    expect(watch?.environment?.AWS_ACCESS_KEY_ID).toBe(minio?.environment?.MINIO_ROOT_USER);
    expect(watch?.environment?.AWS_SECRET_ACCESS_KEY).toBe(minio?.environment?.MINIO_ROOT_PASSWORD);
    for (const name of ['minio-events-bucket', 'minio-events-notify']) {
      const mcHost = Object.entries(services[name]?.environment ?? {}).find(([key]) => key.startsWith('MC_HOST_'))?.[1];
      expect(mcHost, name).toBe(`http://${minio?.environment?.MINIO_ROOT_USER}:${minio?.environment?.MINIO_ROOT_PASSWORD}@minio-events:9000`);
    }
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFile(new URL('../../Dockerfile', import.meta.url), 'utf8');
  const stages = async () =>
    (await dockerfile)
      .split(/^(?=FROM )/m)
      .filter((stage) => stage.startsWith('FROM '))
      .map((stage) => ({ from: stage.split('\n')[0] ?? '', body: stage }));

  it('builds in one stage with the dev dependencies and runs in another as a non-root user', async () => {
    const all = await stages();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const [build] = all;
    const runtime = all.at(-1);
    expect(build?.body).toMatch(/RUN npm ci\b(?![^\n]*--omit=dev)/);
    expect(build?.body).toMatch(/RUN npm run build/);
    const user = /^USER\s+(\S+)/m.exec(runtime?.body ?? '')?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(runtime?.body).not.toMatch(/npm (ci|install)\b/);
  });

  it("gives the runtime stage everything package.json ships (bin, dist, config, models) and the production dependencies", async () => {
    const runtime = (await stages()).at(-1)?.body ?? '';
    const copied = [...runtime.matchAll(/^COPY\s+(?:--from=\S+\s+)?(.+)$/gm)].flatMap((match) => {
      const parts = (match[1] ?? '').trim().split(/\s+/);
      return parts.slice(0, -1).map((path) => path.replace(/^\/app\//, '').replace(/^\.\//, '').replace(/\/$/, ''));
    });
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[]; bin: Record<string, string> };
    for (const entry of pkg.files) expect(copied, entry).toContain(entry);
    for (const bin of Object.values(pkg.bin)) expect(copied, bin).toContain(bin.split('/')[0]);
    for (const entry of ['package.json', 'node_modules']) expect(copied, entry).toContain(entry);
    expect(runtime).toMatch(/ENTRYPOINT \["node", "\/app\/bin\/docmill\.js"\]/);
  });
});
