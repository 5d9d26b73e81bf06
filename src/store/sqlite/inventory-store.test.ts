import { describe } from 'node:test';
import { inventoryStoreContract } from '../inventory-store-contract.ts';
import { createSqliteInventoryStore } from './inventory-store.ts';

describe('SQLite inventory store', () => {
  inventoryStoreContract('sqlite', () => createSqliteInventoryStore(':memory:'));
});
