/** The buckets panel's rules: labels from the bucket dimensions, groups by attribute kind. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BucketsData } from './api.ts';
import { bucketLabel, groupBuckets } from './buckets-panel.ts';
import { EMPTY_DIMENSIONS } from '../attributes/buckets.ts';

type Bucket = BucketsData['items'][number]['buckets'][number];

const range = (min: number, max: number) => ({
  min,
  max,
  minInclusive: true,
  maxInclusive: false,
});

function bucket(key: string, types: Bucket['attributeTypes'], dims: Partial<Bucket['dimensions']>) {
  return {
    bucketKey: key,
    bucketId: `buff163:item:${key}`,
    attributeTypes: types,
    dimensions: { ...EMPTY_DIMENSIONS, ...dims },
  } as Bucket;
}

const FLOAT = bucket('float:0.15-0.18', ['float'], { float: range(0.15, 0.18) });
const RUBY = bucket('tag:ruby', ['tag'], { variant: 'Ruby', finishCatalog: 415 });
const RUBY_FLOAT = bucket('tag:ruby:float:0.01-0.02', ['tag', 'float'], {
  variant: 'Ruby',
  float: range(0.01, 0.02),
});
const FADE = bucket('fade:95-96', ['fade'], { fade: range(95, 96) });

test('labels: phase, float band and fade range from the dimensions', () => {
  assert.equal(bucketLabel(FLOAT), '0.15–0.18');
  assert.equal(bucketLabel(RUBY), 'Ruby');
  assert.equal(bucketLabel(RUBY_FLOAT), 'Ruby · 0.01–0.02');
  assert.equal(bucketLabel(FADE), '95–96 %');
  assert.equal(bucketLabel(bucket('tag:x', ['tag'], {})), 'tag:x', 'no dimension: the key');
});

test('groups by attribute kind, first appearance order, buckets in served order', () => {
  const second = bucket('float:0.27-0.38', ['float'], { float: range(0.27, 0.38) });
  const groups = groupBuckets([FLOAT, RUBY, RUBY_FLOAT, second, FADE]);
  assert.deepEqual([...groups.keys()], ['float', 'tag', 'tag+float', 'fade']);
  assert.deepEqual(
    groups.get('float')!.map((b) => b.bucketKey),
    ['float:0.15-0.18', 'float:0.27-0.38'],
  );
});
