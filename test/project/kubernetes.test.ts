/**
 * deploy/kubernetes/ checked without a cluster: every manifest parsed by the project's YAML parser and validated,
 * strictly, against the Kubernetes API schemas (kubernetes-models 4.5: Kubernetes' OpenAPI as JSON-schema validators,
 * the preStop sleep action included) and KEDA's CRD schemas (@kubernetes-models/keda); the commands they run are docmill's, with its flags;
 * image, ports and environment agree with docker-compose.yml; the probes are routes docmill answers; and KEDA reads
 * the list docmill's queue really keeps its waiting documents in.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { QueueKeys } from 'bullmq';
import type { Command } from 'commander';
import { Redis } from 'ioredis';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { buildProgram } from '../../src/cli/main.js';
import { DEFAULT_DEADLINE_MARGIN_MS } from '../../src/client/remote-parse-api.js';
import { DEFAULT_TIMEOUT_MS } from '../../src/contract/limits.js';
import { enqueue } from '../../src/index.js';
import { DocmillMetrics } from '../../src/metrics/metrics.js';
import { startMetricsServer } from '../../src/metrics/metrics-server.js';
import { DEFAULT_QUEUE, QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { deleteQueueKeys, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const FOLDER = new URL('../../deploy/kubernetes/', import.meta.url);

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

interface Probe {
  httpGet: { path: string; port: string | number };
}

interface Container {
  name: string;
  image: string;
  args: string[];
  env?: EnvVar[];
  ports?: { name: string; containerPort: number }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
}

interface DeploymentManifest extends Manifest {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { terminationGracePeriodSeconds: number; containers: Container[] } };
  };
}

interface ScaledObjectManifest extends Manifest {
  spec: {
    scaleTargetRef: { name: string };
    triggers: { type: string; metadata: Record<string, string>; authenticationRef: { name: string } }[];
  };
}

/** The schema of every kind the manifests may hold: a model class whose validate() runs the compiled JSON schema. */
const SCHEMAS = [Deployment, Service, Secret, Namespace, PersistentVolumeClaim, HorizontalPodAutoscaler, ScaledObject, TriggerAuthentication];

const composeText = await readFile(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
const files = (await readdir(FOLDER)).filter((name) => name.endsWith('.yaml')).sort();
const kustomization = parse(await readFile(new URL('kustomization.yaml', FOLDER), 'utf8')) as {
  resources: string[];
  images: { name: string; newName?: string; newTag?: string }[];
};
const manifests: (Manifest & { file: string })[] = [];
for (const file of kustomization.resources) {
  for (const document of parseAllDocuments(await readFile(new URL(file, FOLDER), 'utf8'))) {
    expect(document.errors, file).toEqual([]);
    manifests.push({ ...(document.toJS() as Manifest), file });
  }
}

function find<T extends Manifest>(kind: string, name: string): T {
  const found = manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found as unknown as T;
}

const worker = find<DeploymentManifest>('Deployment', 'docmill-worker').spec.template.spec;
const serve = find<DeploymentManifest>('Deployment', 'docmill-serve').spec.template.spec;
const secret = find<Manifest & { stringData: Record<string, string> }>('Secret', 'docmill');
const containers = [...worker.containers, ...serve.containers];

/**
 * `object` seen through a proxy that records which fields the schema's validator looks at. A compiled JSON schema
 * reads every property it defines and enumerates the keys of a map; a field it never read is one the schema does
 * not know (a typo Kubernetes would reject or silently drop), which a non-strict schema lets pass.
 */
function strictView(object: object): { view: object; unknownFields: () => string[] } {
  const records: { value: object; path: string; read: Set<string>; enumerated: boolean }[] = [];
  const views = new WeakMap<object, object>();
  const wrap = (value: unknown, path: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const known = views.get(value);
    if (known) return known;
    const record = { value, path, read: new Set<string>(), enumerated: false };
    records.push(record);
    const view = new Proxy(value, {
      get(target, key, receiver) {
        const field: unknown = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !Object.hasOwn(target, key)) return field;
        record.read.add(key);
        return wrap(field, `${path}/${key}`);
      },
      ownKeys(target) {
        record.enumerated = true;
        return Reflect.ownKeys(target);
      },
    });
    views.set(value, view);
    return view;
  };
  return {
    view: wrap(object, '') as object,
    unknownFields: () =>
      records
        .filter(({ value, enumerated }) => !enumerated && !Array.isArray(value))
        .flatMap(({ value, path, read }) => Object.keys(value).filter((key) => !read.has(key)).map((key) => `${path}/${key}`)),
  };
}

function validate(manifest: Manifest): string[] {
  const { file, ...object } = manifest as Manifest & { file: string };
  const schema = SCHEMAS.find((model) => model.apiVersion === object.apiVersion && model.kind === object.kind);
  if (!schema) return [`${file}: no schema for ${object.apiVersion} ${object.kind}`];
  const { view, unknownFields } = strictView(object);
  try {
    schema.prototype.validate.call(view);
  } catch (error) {
    return [`${file}: ${object.kind} ${object.metadata.name}: ${(error as Error).message}`];
  }
  return unknownFields().map((path) => `${file}: ${object.kind} ${object.metadata.name}: unknown field ${path}`);
}

describe('deploy/kubernetes against the Kubernetes and KEDA schemas', () => {
  it('kustomization.yaml lists every manifest of the folder, and each parses', () => {
    expect([...kustomization.resources, 'kustomization.yaml'].sort()).toEqual(files);
    expect(manifests.length).toBeGreaterThanOrEqual(8);
  });

  it('every object is valid for its schema and has no field the schema does not know', () => {
    expect(manifests.flatMap(validate)).toEqual([]);
  });

  it('the strict check catches what the schema alone lets through, and the schema catches a wrong type', () => {
    const deployment = find<DeploymentManifest>('Deployment', 'docmill-worker');
    const changed = (change: (podSpec: Record<string, unknown>) => void): Manifest => {
      const copy = structuredClone(deployment) as unknown as Manifest & { spec: { template: { spec: Record<string, unknown> } } };
      change(copy.spec.template.spec);
      return copy;
    };
    const typo = changed((podSpec) => (podSpec.terminationGracePeriodSecond = 150));
    expect(validate(typo)).toEqual(['worker.yaml: Deployment docmill-worker: unknown field /spec/template/spec/terminationGracePeriodSecond']);
    const wrongType = changed((podSpec) => (podSpec.terminationGracePeriodSeconds = '150'));
    expect(validate(wrongType)[0]).toMatch(/terminationGracePeriodSeconds/);
  });

  it('names are DNS labels, and each Deployment selects the labels of its own pods', () => {
    for (const manifest of manifests) expect(manifest.metadata.name, manifest.file).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    for (const manifest of manifests.filter(({ kind }) => kind === 'Deployment') as unknown as DeploymentManifest[]) {
      expect(manifest.spec.template.metadata.labels).toMatchObject(manifest.spec.selector.matchLabels);
    }
  });
});

describe('deploy/kubernetes runs docmill as docker-compose.yml does', () => {
  interface ComposeService {
    image?: string;
    command?: string[];
    environment?: Record<string, string>;
  }
  // Compose resolves YAML merge keys (<<: *anchor); the yaml package does so only when asked.
  const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };

  it('every container runs a docmill subcommand with flags it has, each with its value', () => {
    const program = buildProgram(
      { stdout: process.stdout, stderr: process.stderr, env: {}, logger: pino({ level: 'silent' }), signal: new AbortController().signal, setExitCode: () => undefined },
      process.stdout,
      process.stderr,
    );
    const commands = new Map<string, Command>(program.commands.map((command) => [command.name(), command]));
    expect(containers.map((container) => container.args[0])).toEqual(['worker', 'serve']);
    for (const container of containers) {
      const [subcommand, ...args] = container.args;
      const command = commands.get(subcommand ?? '');
      expect(command, `docmill ${subcommand}`).toBeDefined();
      for (const [index, arg] of args.entries()) {
        if (!arg.startsWith('-')) continue;
        const option = command?.options.find((candidate) => candidate.long === arg || candidate.short === arg);
        expect(option, `${container.name}: ${arg}`).toBeDefined();
        if (option?.required) expect(args[index + 1], `${container.name}: ${arg} needs a value`).toMatch(/^[^-]/);
      }
    }
  });

  it('the image is the one docker-compose.yml builds', () => {
    const tagged = (image: string) => {
      const [name = '', tag] = image.split(':');
      const override = kustomization.images.find((entry) => entry.name === name);
      return `${override?.newName ?? name}:${override?.newTag ?? tag}`;
    };
    for (const container of containers) expect(tagged(container.image)).toBe(compose.services.worker?.image);
    expect(compose.services.parse?.image).toBe(compose.services.worker?.image);
  });

  it('ports: the metrics ports and the parse port are the flags given, as in docker-compose.yml', () => {
    const flag = (args: string[] | undefined, name: string) => args?.[args.indexOf(name) + 1];
    const port = (container: Container | undefined, name: string) => String(container?.ports?.find((entry) => entry.name === name)?.containerPort);
    const [workerContainer] = worker.containers;
    const [serveContainer] = serve.containers;
    expect(port(workerContainer, 'metrics')).toBe(flag(workerContainer?.args, '--metrics-port'));
    expect(port(workerContainer, 'metrics')).toBe(flag(compose.services.worker?.command, '--metrics-port'));
    expect(port(serveContainer, 'metrics')).toBe(flag(serveContainer?.args, '--metrics-port'));
    expect(port(serveContainer, 'metrics')).toBe(flag(compose.services.parse?.command, '--metrics-port'));
    expect(port(serveContainer, 'http')).toBe(flag(serveContainer?.args, '--port'));
    expect(port(serveContainer, 'http')).toBe(flag(compose.services.parse?.command, '--port'));
    const service = find<Manifest & { spec: { selector: Record<string, string>; ports: { name: string; port: number; targetPort: string }[] } }>('Service', 'docmill-serve');
    expect(find<DeploymentManifest>('Deployment', 'docmill-serve').spec.template.metadata.labels).toMatchObject(service.spec.selector);
    for (const entry of service.spec.ports) expect(String(entry.port)).toBe(port(serveContainer, entry.targetPort));
    // The workers reach the parse server through its Service, at its port.
    const apiUrl = new URL(workerContainer?.env?.find((variable) => variable.name === 'DOCMILL_API_URL')?.value ?? '');
    expect(apiUrl.hostname).toBe(service.metadata.name);
    expect(apiUrl.port).toBe(port(serveContainer, 'http'));
  });

  it('environment: the names docker-compose.yml gives the same processes, secrets from the Secret', () => {
    const names = (container: Container | undefined) => (container?.env ?? []).map((variable) => variable.name).sort();
    expect(names(worker.containers[0])).toEqual(Object.keys(compose.services.worker?.environment ?? {}).sort());
    expect(names(serve.containers[0])).toEqual(Object.keys(compose.services.parse?.environment ?? {}).sort());
    for (const variable of containers.flatMap((container) => container.env ?? [])) {
      const reference = variable.valueFrom?.secretKeyRef;
      if (!reference) continue;
      expect(reference.name).toBe(secret.metadata.name);
      expect(Object.keys(secret.stringData), variable.name).toContain(reference.key);
    }
    // Keys are never written into a manifest in the clear.
    for (const variable of containers.flatMap((container) => container.env ?? [])) {
      if (/KEY|REDIS_URL/.test(variable.name)) expect(variable.valueFrom?.secretKeyRef, variable.name).toBeDefined();
    }
  });

  it('probes are on the metrics port, at routes the metrics server answers 200', async () => {
    const server = await startMetricsServer(new DocmillMetrics(), 0, pino({ level: 'silent' }));
    try {
      for (const container of containers) {
        const probes = [container.startupProbe, container.livenessProbe, container.readinessProbe];
        expect(probes.every(Boolean), container.name).toBe(true);
        for (const probe of probes) {
          expect(probe?.httpGet.port, container.name).toBe('metrics');
          const response = await fetch(`http://127.0.0.1:${server.port}${probe?.httpGet.path}`);
          expect(response.status, `${container.name} ${probe?.httpGet.path}`).toBe(200);
        }
        expect(container.readinessProbe?.httpGet.path).toBe('/readyz');
        expect(container.livenessProbe?.httpGet.path).toBe('/healthz');
      }
    } finally {
      await server.close();
    }
  });

  it('grace periods cover the drains: two rounds of parse requests for a worker, the preStop and the drain for serve', () => {
    const requestSeconds = (DEFAULT_TIMEOUT_MS + DEFAULT_DEADLINE_MARGIN_MS) / 1000;
    expect(worker.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(2 * requestSeconds);
    const preStop = serve.containers[0]?.lifecycle?.preStop?.sleep?.seconds ?? 0;
    expect(preStop).toBeGreaterThan(0);
    expect(serve.terminationGracePeriodSeconds).toBeGreaterThan(preStop + DEFAULT_TIMEOUT_MS / 1000);
  });
});

describe('KEDA scales the workers on the wait list of their queue', () => {
  const scaled = find<ScaledObjectManifest>('ScaledObject', 'docmill-worker');
  const [trigger] = scaled.spec.triggers;
  const args = worker.containers[0]?.args ?? [];
  const queue = args.includes('--queue') ? (args[args.indexOf('--queue') + 1] ?? '') : DEFAULT_QUEUE;
  const waitKey = (name: string) => new QueueKeys(QUEUE_PREFIX).toKey(name, 'wait');
  const created: string[] = [];
  let dir: string | undefined;

  afterAll(async () => {
    for (const name of created) await deleteQueueKeys(name);
    if (dir) await removeTempDir(dir);
  });

  it("targets the worker Deployment through a TriggerAuthentication whose keys are in the Secret", () => {
    expect(scaled.spec.scaleTargetRef.name).toBe('docmill-worker');
    expect(trigger?.type).toBe('redis');
    const auth = find<Manifest & { spec: { secretTargetRef: { parameter: string; name: string; key: string }[] } }>('TriggerAuthentication', trigger?.authenticationRef.name ?? '');
    for (const reference of auth.spec.secretTargetRef) {
      expect(reference.name).toBe(secret.metadata.name);
      expect(Object.keys(secret.stringData)).toContain(reference.key);
    }
    // The example Secret names one Redis twice (docmill's URL, KEDA's host:port and password): the same one.
    const redisUrl = new URL(secret.stringData.REDIS_URL ?? '');
    expect(secret.stringData['redis-address']).toBe(`${redisUrl.hostname}:${redisUrl.port}`);
    expect(secret.stringData['redis-password']).toBe(decodeURIComponent(redisUrl.password));
    expect(trigger?.metadata.databaseIndex).toBe(redisUrl.pathname.replace(/^\//, '') || '0');
  });

  it("names the wait list of the worker's queue, BullMQ's key under docmill's prefix", () => {
    expect(trigger?.metadata.listName).toBe(waitKey(queue));
  });

  it('that list holds exactly the jobs enqueued and not yet taken: a large document alone, small ones grouped (enqueued for real on a queue of the test)', async () => {
    dir = await makeTempDir();
    const src = join(dir, 'src');
    await mkdir(src);
    for (const name of ['a.csv', 'b.csv', 'c.csv']) await writeFile(join(src, name), `x\n${name}\n`);
    // Above the grouping's 256 KB: a job of its own.
    await writeFile(join(src, 'large.csv'), `x\n${'row\n'.repeat(80_000)}`);
    const name = `k8s-${randomUUID()}`;
    created.push(name);
    const listed = await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue: name }).done;
    expect(listed.queued).toBe(4);
    const redis = new Redis(SHARED_REDIS_URL);
    try {
      // The manifest's key with the test's queue in place of the worker's: what KEDA's LLEN would read.
      const key = (trigger?.metadata.listName ?? '').replace(`:${queue}:wait`, `:${name}:wait`);
      expect(await redis.type(key)).toBe('list');
      expect(await redis.llen(key)).toBe(2);
    } finally {
      redis.disconnect();
    }
  });
});

describe('docs/deployment.md', () => {
  it('says how to apply the folder and names each manifest', async () => {
    const text = await readFile(new URL('../../docs/deployment.md', import.meta.url), 'utf8');
    expect(text).toContain('kubectl apply -k deploy/kubernetes');
    for (const file of kustomization.resources) expect(text, file).toContain(file);
  });
});
