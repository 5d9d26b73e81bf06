/**
 * Reads Prometheus text exposition in tests: every sample with its labels, and the sum of the
 * samples of one metric whose labels include the given ones (what a PromQL `sum` would give).
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

export function matching(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** Sum over the matching samples; null when none matches. */
export function total(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | null {
  const found = matching(samples, name, labels);
  return found.length === 0 ? null : found.reduce((sum, sample) => sum + sample.value, 0);
}

/** The `# HELP` line of every metric family in the text. */
export function helpLines(text: string): Map<string, string> {
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^# HELP (\S+) (.+)$/.exec(line);
    if (match) help.set(match[1]!, match[2]!);
  }
  return help;
}
