// The Prometheus text exposition format (version 0.0.4): metric families with
// labelled counters, gauges, histograms and summaries, written out on demand.
// Small on purpose: the daemon needs a few dozen series, not a client library.

export type Labels = Record<string, string>;

type Kind = 'counter' | 'gauge' | 'histogram' | 'summary';

/** What a family writes: its `# HELP` and `# TYPE` lines, then its samples. */
export interface Family {
  readonly name: string;
  render(out: string[]): void;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** `{a="1",b="2"}`, or nothing for no labels. */
export function labelText(labels: Labels): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  return `{${keys.map((k) => `${k}="${escapeValue(labels[k]!)}"`).join(',')}}`;
}

/** Go's strconv formatting as Prometheus clients write it: integers plain, +Inf/-Inf/NaN spelled out. */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

abstract class Base implements Family {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly kind: Kind,
    readonly labelNames: readonly string[],
  ) {
    if (!NAME.test(name)) throw new Error(`bad metric name ${name}`);
    for (const l of labelNames) if (!LABEL.test(l) || l.startsWith('__')) throw new Error(`bad label name ${l} on ${name}`);
  }

  protected key(labels: Labels): string {
    for (const l of Object.keys(labels)) if (!this.labelNames.includes(l)) throw new Error(`${this.name} has no label ${l}`);
    return JSON.stringify(this.labelNames.map((l) => labels[l] ?? ''));
  }

  protected labelsOf(key: string): Labels {
    const values = JSON.parse(key) as string[];
    const out: Labels = {};
    this.labelNames.forEach((l, i) => (out[l] = values[i]!));
    return out;
  }

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.kind}`);
    this.samples(out);
  }

  protected abstract samples(out: string[]): void;
}

/** A value per label set: counters only go up, gauges are set. */
class Scalar extends Base {
  private readonly values = new Map<string, number>();

  protected add(labels: Labels, by: number): void {
    const k = this.key(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }

  protected put(labels: Labels, value: number): void {
    this.values.set(this.key(labels), value);
  }

  /** Forgets every series (a gauge refilled from scratch at each scrape). */
  clear(): void {
    this.values.clear();
  }

  protected samples(out: string[]): void {
    for (const [k, v] of this.values) out.push(`${this.name}${labelText(this.labelsOf(k))} ${formatValue(v)}`);
  }
}

export class Counter extends Scalar {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    if (!name.endsWith('_total')) throw new Error(`counter ${name} must end in _total`);
    super(name, help, 'counter', labelNames);
  }

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name}: a counter cannot go down (${by})`);
    this.add(labels, by);
  }

  /** For counters kept elsewhere (the kernel's CPU time): the running total as it stands. */
  setTotal(labels: Labels, total: number): void {
    this.put(labels, total);
  }
}

export class Gauge extends Scalar {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'gauge', labelNames);
  }

  set(labels: Labels, value: number): void {
    this.put(labels, value);
  }

  inc(labels: Labels = {}, by = 1): void {
    this.add(labels, by);
  }

  dec(labels: Labels = {}, by = 1): void {
    this.add(labels, -by);
  }
}

/** Cumulative buckets (`le`), `_sum` and `_count` per label set. */
export class Histogram extends Base {
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number }>();

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, 'histogram', labelNames);
    if (labelNames.includes('le')) throw new Error(`${name}: "le" is reserved`);
    for (let i = 1; i < buckets.length; i++) if (!(buckets[i]! > buckets[i - 1]!)) throw new Error(`${name}: buckets must increase`);
  }

  observe(labels: Labels, value: number): void {
    const k = this.key(labels);
    let s = this.series.get(k);
    if (!s) this.series.set(k, (s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  protected samples(out: string[]): void {
    for (const [k, s] of this.series) {
      const labels = this.labelsOf(k);
      this.buckets.forEach((b, i) => out.push(`${this.name}_bucket${labelText({ ...labels, le: formatValue(b) })} ${s.counts[i]}`));
      out.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${s.count}`);
      out.push(`${this.name}_sum${labelText(labels)} ${formatValue(s.sum)}`);
      out.push(`${this.name}_count${labelText(labels)} ${s.count}`);
    }
  }
}

/** Quantiles measured elsewhere (the event loop's delay histogram), with their sum and count. */
export class Summary extends Base {
  private value?: { quantiles: Array<[number, number]>; sum: number; count: number };

  constructor(name: string, help: string) {
    super(name, help, 'summary', []);
  }

  set(quantiles: Array<[number, number]>, sum: number, count: number): void {
    this.value = { quantiles, sum, count };
  }

  protected samples(out: string[]): void {
    if (!this.value) return;
    for (const [q, v] of this.value.quantiles) out.push(`${this.name}${labelText({ quantile: formatValue(q) })} ${formatValue(v)}`);
    out.push(`${this.name}_sum ${formatValue(this.value.sum)}`, `${this.name}_count ${this.value.count}`);
  }
}

/** The families in the order they were made, written as one exposition. */
export function exposition(families: readonly Family[]): string {
  const out: string[] = [];
  for (const f of families) f.render(out);
  return `${out.join('\n')}\n`;
}
