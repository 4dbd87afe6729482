import { createMemoryStore } from '../../server/store/memory.js';
import { figuresContract, keyValueContract, storeContract } from './contract.js';

describe('store contract: in-memory', () => {
  storeContract(async () => createMemoryStore());
  describe('figures', () => figuresContract(async () => createMemoryStore()));
  describe('key values', () => keyValueContract(async () => createMemoryStore()));
});
