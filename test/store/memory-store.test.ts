import { createMemoryStore } from '../../server/store/memory.js';
import { figuresContract, groupedFiguresContract, keyValueContract, sessionContract, storeContract } from './contract.js';

describe('store contract: in-memory', () => {
  storeContract(async () => createMemoryStore());
  describe('figures', () => figuresContract(async () => createMemoryStore()));
  describe('grouped figures', () => groupedFiguresContract(async () => createMemoryStore()));
  describe('key values', () => keyValueContract(async () => createMemoryStore()));
  describe('console sessions', () => sessionContract(async () => createMemoryStore()));
});
