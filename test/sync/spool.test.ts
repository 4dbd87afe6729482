import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spool } from '../../server/sync/http/spool.js';

async function* body(parts: number, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < parts; i++) yield Buffer.alloc(size, 97 + (i % 26));
}

const uploadDirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith('gatehouse-upload-'));

async function bytesOf(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

describe('spooling a body of unknown length', () => {
  it('a body within the memory part is kept in memory: no temporary file, the same bytes, its length', async () => {
    const before = uploadDirs();
    const spooled = await spool(body(4, 1000), 1 << 20, () => new Error('too large'), 4096);
    assert.equal(spooled.onDisk, false);
    assert.deepEqual(uploadDirs(), before);
    assert.equal(spooled.length, 4000);
    assert.deepEqual(await bytesOf(spooled.stream), await bytesOf(body(4, 1000)));
    await spooled.dispose();
  });

  it('a larger body goes to a private file from its first byte, reads back whole, and dispose removes it', async () => {
    const before = uploadDirs();
    const spooled = await spool(body(10, 1000), 1 << 20, () => new Error('too large'), 4096);
    assert.equal(spooled.onDisk, true);
    assert.equal(uploadDirs().length, before.length + 1);
    assert.equal(spooled.length, 10_000);
    assert.deepEqual(await bytesOf(spooled.stream), await bytesOf(body(10, 1000)));
    await spooled.dispose();
    await spooled.dispose();
    assert.deepEqual(uploadDirs(), before);
  });

  it('stops as soon as the limit is passed, in memory or on disk, and leaves no file', async () => {
    const before = uploadDirs();
    await assert.rejects(spool(body(10, 1000), 2500, () => new Error('too large'), 4096), /too large/);
    await assert.rejects(spool(body(10, 1000), 6500, () => new Error('too large'), 4096), /too large/);
    assert.deepEqual(uploadDirs(), before);
  });
});
