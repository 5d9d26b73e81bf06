/** `npm run bench`: every benchmark, each reporting a ratio against a baseline from the same run. */
import { BENCH_ITEM, benchHttpReads } from './http-reads.ts';

const item = encodeURIComponent(BENCH_ITEM);
console.log(`node ${process.version}; 50 connections; 8 s per measurement after a 2 s warm-up`);
await benchHttpReads({
  'GET /v1/pricing/:name (auth + quota)': `/v1/pricing/${item}`,
  'GET /v1/nbbo?market_hash_name= (auth + quota)': `/v1/nbbo?market_hash_name=${item}`,
  'GET /v1/nbbo/depth?market_hash_name= (auth + quota)': `/v1/nbbo/depth?market_hash_name=${item}`,
});
