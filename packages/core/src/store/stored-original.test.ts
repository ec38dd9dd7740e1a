import { addressOf, UnknownHandleError } from '@distil/contract';
import { describe, expect, it } from 'vitest';
import { compareExisting, decodeRecord, encodeRecord, readRecordHeader } from './stored-original.js';

const original = new TextEncoder().encode('line one\nline two\n');
const address = addressOf(original);
const record = encodeRecord(address, original);

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnknownHandleError);
    return (error as Error).message;
  }
  throw new Error('expected UnknownHandleError');
}

describe('stored original records', () => {
  it('carry the full digest and length in a readable header', () => {
    const firstLine = record.toString('latin1').split('\n')[0];
    expect(firstLine).toBe(`distil-original/1 sha256=${address.digest} bytes=${original.byteLength}`);
    expect(readRecordHeader(record)).toMatchObject({ digest: address.digest, length: original.byteLength });
    expect(decodeRecord(address.handle, record)).toEqual(original);
  });

  it('are never served when truncated, overlong, tampered, misfiled or headerless', () => {
    expect(reasonOf(() => decodeRecord(address.handle, record.subarray(0, record.length - 3)))).toMatch(
      /truncated/,
    );
    expect(reasonOf(() => decodeRecord(address.handle, Buffer.concat([record, Buffer.from('x')])))).toMatch(
      /overlong/,
    );
    const tampered = Buffer.from(record);
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 2) ^ 1, tampered.length - 2);
    expect(reasonOf(() => decodeRecord(address.handle, tampered))).toMatch(/SHA-256 verification/);
    expect(reasonOf(() => decodeRecord('dh_000000000000', record))).toMatch(/different digest/);
    expect(reasonOf(() => decodeRecord(address.handle, Buffer.from(original)))).toMatch(/header/);
    expect(reasonOf(() => decodeRecord(address.handle, Buffer.alloc(0)))).toMatch(/header/);
  });

  it('tell an idempotent put from a collision and from damage', () => {
    expect(compareExisting(address, original, record)).toEqual({ kind: 'same' });
    const other = new TextEncoder().encode('other bytes');
    // A true collision: a different full digest sharing the 12-digit prefix of the handle.
    const colliding = `${address.digest.slice(0, 12)}${'f'.repeat(52)}`;
    const collisionRecord = encodeRecord({ handle: address.handle, digest: colliding }, other);
    expect(compareExisting(address, original, collisionRecord)).toEqual({ kind: 'collision' });
    expect(compareExisting(address, original, record.subarray(0, 20)).kind).toBe('damaged');
    expect(compareExisting(address, original, encodeRecord(addressOf(other), other)).kind).toBe('damaged');
    expect(compareExisting(address, original, encodeRecord(address, other)).kind).toBe('damaged');
  });
});
