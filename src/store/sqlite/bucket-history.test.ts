import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { bucketHistoryContract } from '../bucket-history-contract.ts';

bucketHistoryContract('sqlite :memory:', async () => ({
  store: createSqlitePriceStore({ path: ':memory:' }),
  cleanup: async () => {},
}));
