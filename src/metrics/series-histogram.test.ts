import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram.ts';
import { parseSamples } from './test-support.ts';

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];

function sorted(text: string) {
  return parseSamples(text)
    .map((sample) => ({ ...sample, name: sample.name.replace(/^(ours|theirs)/, 'h') }))
    .map((sample) =>
      JSON.stringify([sample.name, Object.entries(sample.labels).sort(), sample.value]),
    )
    .sort();
}

describe('SeriesHistogram: the same exposition as prom-client Histogram', () => {
  test('any observations give identical buckets, sums and counts per label set', () => {
    const observation = fc.record({
      route: fc.constantFrom('/a', '/b/:id'),
      value: fc.oneof(fc.double({ min: 0, max: 20, noNaN: true }), fc.constantFrom(...BUCKETS)),
    });
    fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 50 }), async (observations) => {
        const registry = new Registry();
        const options = { help: 'h', labelNames: ['route'] as const, buckets: BUCKETS };
        const ours = new SeriesHistogram({ ...options, name: 'ours', registers: [registry] });
        const theirs = new Histogram({ ...options, name: 'theirs', registers: [] });
        const reference = new Registry();
        reference.registerMetric(theirs);
        for (const { route, value } of observations) {
          ours.labels({ route }).observe(value);
          theirs.observe({ route }, value);
        }
        assert.deepEqual(sorted(await registry.metrics()), sorted(await reference.metrics()));
      }),
      { numRuns: 200 },
    );
  });

  test('HELP and TYPE lines; reset empties every series', async () => {
    const registry = new Registry();
    const histogram = new SeriesHistogram({
      name: 'request_seconds',
      help: 'How long.',
      labelNames: ['route'],
      buckets: BUCKETS,
      registers: [registry],
    });
    histogram.labels({ route: '/a' }).observe(0.5);
    const text = await registry.metrics();
    assert.match(text, /^# HELP request_seconds How long\.\n# TYPE request_seconds histogram$/m);
    assert.match(text, /^request_seconds_bucket\{route="\/a",le="\+Inf"\} 1$/m);
    registry.resetMetrics();
    assert.doesNotMatch(await registry.metrics(), /request_seconds_count/);
  });
});
