/**
 * The Grafana dashboard, the Prometheus alert rules and the metrics table of docs/metrics.md name only metrics docmill
 * exports, with labels those metrics have: no Prometheus or Grafana runs here, so they are checked against the registry.
 * promtool (Debian's `prometheus` package), when installed, checks the rule and config files and runs the alert
 * rules' own unit tests (test/project/alerts.promtool.yml).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DocmillMetrics, PAUSE_REASONS, QUEUE_STATES } from '../../src/metrics/metrics.js';

interface Exported {
  type: string;
  labels: string[];
}

/** Every metric a docmill process can export (default process metrics included), with its type and labels. */
function exportedMetrics(): Map<string, Exported> {
  const metrics = new DocmillMetrics({ defaultMetrics: true });
  const exported = new Map<string, Exported>();
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name, type } = metric as unknown as { name: string; type: string };
    const labels = [...((metric as unknown as { labelNames?: string[] }).labelNames ?? [])];
    exported.set(name, { type, labels });
    if (type === 'histogram') {
      exported.set(`${name}_bucket`, { type: 'counter', labels: [...labels, 'le'] });
      for (const suffix of ['_sum', '_count']) exported.set(`${name}${suffix}`, { type: 'counter', labels });
    }
  }
  return exported;
}

/** Prometheus's own series the files may query besides docmill's. */
const PROMETHEUS_SERIES: Record<string, Exported> = { up: { type: 'gauge', labels: ['job', 'instance'] } };

/** Values a label of a docmill metric can take, where the set is closed. */
const LABEL_VALUES: Record<string, readonly string[]> = {
  'docmill_queue_jobs.state': QUEUE_STATES,
  'docmill_queue_paused.reason': PAUSE_REASONS,
  'docmill_documents_total.status': ['converted', 'skipped', 'failed'],
  'docmill_throttled_total.kind': ['concurrency', 'rate'],
};

const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'inf', 'nan']);
/** Aggregations, which may be followed by `by (…)` before their parenthesis. */
const AGGREGATIONS = new Set(['sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile']);

interface Selector {
  metric: string;
  matchers: Array<{ label: string; op: string; value: string }>;
}

/**
 * The metric selectors of a PromQL expression: identifiers that are not functions (followed by `(`), keywords,
 * label names inside `{…}` or in `by (…)`/`on (…)` lists, durations inside `[…]`, or strings.
 */
function selectorsOf(expr: string): Selector[] {
  const selectors: Selector[] = [];
  let index = 0;
  let labelList = false;
  const text = expr.replace(/\$__\w+/g, '5m');
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"' || char === "'") {
      index = text.indexOf(char, index + 1) + 1;
      continue;
    }
    if (char === '[') {
      index = text.indexOf(']', index) + 1;
      continue;
    }
    if (char === '#') {
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end;
      continue;
    }
    if (labelList && char === ')') labelList = false;
    const word = /^[a-zA-Z_:][\w:]*/.exec(text.slice(index))?.[0];
    if (!word) {
      index++;
      continue;
    }
    const after = text.slice(index + word.length).trimStart();
    index += word.length;
    if (labelList) continue;
    if (KEYWORDS.has(word.toLowerCase())) {
      if (['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'].includes(word) && after.startsWith('(')) labelList = true;
      continue;
    }
    if (after.startsWith('(') || AGGREGATIONS.has(word)) continue; // a function or an aggregation
    if (/^\d/.test(word)) continue;
    const selector: Selector = { metric: word, matchers: [] };
    if (after.startsWith('{')) {
      const open = text.indexOf('{', index);
      const close = text.indexOf('}', open);
      for (const match of text.slice(open + 1, close).matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)) {
        selector.matchers.push({ label: match[1] as string, op: match[2] as string, value: match[3] as string });
      }
      index = close + 1;
    }
    selectors.push(selector);
  }
  return selectors;
}

function checkExpression(where: string, expr: string, exported: Map<string, Exported>): number {
  const selectors = selectorsOf(expr);
  expect(selectors.length, `${where}: ${expr}`).toBeGreaterThan(0);
  for (const { metric, matchers } of selectors) {
    const known = exported.get(metric) ?? PROMETHEUS_SERIES[metric];
    expect(known, `${where}: ${metric} is not exported by docmill`).toBeDefined();
    for (const { label, op, value } of matchers) {
      expect(known?.labels, `${where}: ${metric} has no label ${label}`).toContain(label);
      const values = LABEL_VALUES[`${metric}.${label}`];
      if (values && (op === '=' || op === '!=')) expect(values, `${where}: ${metric}{${label}="${value}"}`).toContain(value);
    }
  }
  return selectors.length;
}

interface Panel {
  title?: string;
  type?: string;
  targets?: Array<{ expr?: string }>;
  panels?: Panel[];
}

async function repoFile(path: string): Promise<string> {
  return readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
}

describe('the expression checker', () => {
  it('finds metric selectors and their matchers, and nothing else', () => {
    expect(
      selectorsOf('histogram_quantile(0.95, sum by (le, status) (rate(docmill_document_duration_seconds_bucket{job="w"}[5m]))) > 0 and on() up == 1'),
    ).toEqual([
      { metric: 'docmill_document_duration_seconds_bucket', matchers: [{ label: 'job', op: '=', value: 'w' }] },
      { metric: 'up', matchers: [] },
    ]);
    const exported = exportedMetrics();
    expect(() => checkExpression('self-test', 'sum(rate(docmill_documents_totl[5m]))', exported)).toThrow(/not exported/);
    expect(() => checkExpression('self-test', 'docmill_queue_jobs{state="stuck"}', exported)).toThrow();
    expect(() => checkExpression('self-test', 'docmill_pages_total{status="converted"}', exported)).toThrow(/no label/);
  });
});

describe('config/grafana/dashboards/docmill.json', () => {
  it('queries only metrics and labels docmill exports, in every panel', async () => {
    const dashboard = JSON.parse(await repoFile('config/grafana/dashboards/docmill.json')) as { uid: string; panels: Panel[] };
    const exported = exportedMetrics();
    const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((panel) => panel.type !== 'row');
    expect(panels.length).toBeGreaterThan(0);
    for (const panel of panels) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) checkExpression(`panel "${panel.title}"`, target.expr ?? '', exported);
    }
  });

  it('has the panels an operator looks for', async () => {
    const dashboard = JSON.parse(await repoFile('config/grafana/dashboards/docmill.json')) as { panels: Panel[] };
    const queried = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? '')).join('\n');
    for (const metric of [
      'docmill_documents_total',
      'docmill_document_duration_seconds_bucket',
      'docmill_throttled_total',
      'docmill_retry_after_wait_seconds_total',
      'docmill_credits_used_total',
      'docmill_credits_remaining',
      'docmill_failures_total',
      'docmill_documents_with_warning_total',
      'docmill_queue_jobs',
      'docmill_queue_paused',
      'docmill_engine_threads_busy',
    ]) {
      expect(queried, metric).toContain(metric);
    }
    expect(queried).toMatch(/histogram_quantile\(0\.95,/);
  });
});

describe('config/prometheus/alerts.yml', () => {
  it('alerts on credits, throttling, failures, a stuck queue and a paused queue, querying only what docmill exports', async () => {
    const rules = parse(await repoFile('config/prometheus/alerts.yml')) as {
      groups: Array<{ name: string; rules: Array<{ alert?: string; expr: string; for?: string; labels?: Record<string, string> }> }>;
    };
    const exported = exportedMetrics();
    const alerts = rules.groups.flatMap((group) => group.rules);
    for (const rule of alerts) {
      expect(rule.alert).toBeTruthy();
      expect(rule.labels?.severity, rule.alert).toMatch(/^(warning|critical)$/);
      checkExpression(`alert ${rule.alert}`, rule.expr, exported);
    }
    const byName = new Map(alerts.map((rule) => [rule.alert, rule.expr]));
    expect(byName.get('DocmillCreditsExhausted')).toContain('docmill_queue_paused{reason="credits"}');
    expect(byName.get('DocmillCreditsLow')).toContain('docmill_credits_remaining');
    expect(byName.get('DocmillHighThrottleShare')).toContain('status="429"');
    expect(byName.get('DocmillFailureRate')).toContain('status="failed"');
    expect(byName.get('DocmillQueueStuck')).toContain('docmill_queue_jobs{state="waiting"}');
    expect(byName.get('DocmillQueuePaused')).toContain('docmill_queue_paused');
  });
});

describe('the metrics table of docs/metrics.md', () => {
  it('lists every metric docmill registers, with its type and labels, and no other', async () => {
    const page = await repoFile('docs/metrics.md');
    const section = /^## What docmill exports\n([\s\S]*?)(?=^#{2,3} )/m.exec(page)?.[1] ?? '';
    const rows = [...section.matchAll(/^\| `(docmill_\w+)` \| (\w+) \| ([^|]*) \|/gm)].map((match) => ({
      name: match[1] as string,
      type: match[2] as string,
      labels: [...(match[3] ?? '').matchAll(/`(\w+)`/g)].map((label) => label[1] as string),
    }));
    const metrics = new DocmillMetrics();
    const registered = metrics.registry.getMetricsAsArray().map((metric) => {
      const { name, type } = metric as unknown as { name: string; type: string };
      return { name, type, labels: [...((metric as unknown as { labelNames?: string[] }).labelNames ?? [])] };
    });
    expect(rows.map((row) => row.name).sort()).toEqual(registered.map((metric) => metric.name).sort());
    for (const metric of registered) {
      const row = rows.find((candidate) => candidate.name === metric.name);
      expect(row?.type, metric.name).toBe(metric.type);
      expect(row?.labels, metric.name).toEqual(metric.labels);
    }
  });
});

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const hasPromtool = promtool.status === 0;
if (!hasPromtool) console.warn('promtool not found (Debian package `prometheus`): the promtool checks are skipped');

describe.skipIf(!hasPromtool)('promtool', () => {
  const run = (...args: string[]) => execFileSync('promtool', args, { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) });

  it('accepts the alert rules and the Prometheus config', () => {
    expect(run('check', 'rules', 'config/prometheus/alerts.yml')).toMatch(/SUCCESS/);
    expect(run('check', 'config', 'config/prometheus/prometheus.yml')).toMatch(/SUCCESS/);
  });

  it('fires the alerts on the series their unit tests give (test/project/alerts.promtool.yml)', () => {
    expect(run('test', 'rules', 'test/project/alerts.promtool.yml')).toMatch(/SUCCESS/);
  });
});
