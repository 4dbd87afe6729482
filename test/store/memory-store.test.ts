import { createMemoryStore } from '../../server/store/memory.js';
import { storeContract } from './contract.js';

describe('store contract: in-memory', () => {
  storeContract(async () => createMemoryStore());
});
