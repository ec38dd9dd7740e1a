import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The safetensors format (huggingface/safetensors, "Format" in its README): an 8-byte little-endian header
 * length N, N bytes of JSON mapping each tensor name to { dtype, shape, data_offsets: [begin, end) }
 * relative to the end of the header (plus an optional "__metadata__" string map), then the raw bytes.
 * Written here rather than pulled in as a dependency: it is a few dozen lines, and we need only float
 * tensors.
 */

/** One tensor of a safetensors file, as float32. */
export interface NamedTensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

const Entry = z.object({
  dtype: z.string(),
  shape: z.array(z.number().int().nonnegative()),
  data_offsets: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
});

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function decode(dtype: string, bytes: Uint8Array, path: string, name: string): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = (size: number) => {
    if (bytes.byteLength % size !== 0)
      throw new Error(`${path}: tensor ${name} has a partial ${dtype} element`);
    return bytes.byteLength / size;
  };
  switch (dtype) {
    case 'F32':
      return Float32Array.from({ length: n(4) }, (_, i) => view.getFloat32(i * 4, true));
    case 'F64':
      return Float32Array.from({ length: n(8) }, (_, i) => view.getFloat64(i * 8, true));
    case 'F16':
      return Float32Array.from({ length: n(2) }, (_, i) => halfToFloat(view.getUint16(i * 2, true)));
    case 'BF16': {
      // bfloat16 is the top half of a float32.
      const out = new Float32Array(n(2));
      const u32 = new Uint32Array(out.buffer);
      for (let i = 0; i < out.length; i++) u32[i] = view.getUint16(i * 2, true) << 16;
      return out;
    }
    default:
      throw new Error(`${path}: tensor ${name} has dtype ${dtype}; only F32, F16, BF16 and F64 are read`);
  }
}

/** Reads every floating-point tensor of a safetensors file; integer tensors (e.g. position_ids) are skipped. */
export function readSafetensors(path: string): Map<string, NamedTensor> {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    throw new Error(`${path}: cannot read (${(error as Error).message})`);
  }
  if (file.byteLength < 8) throw new Error(`${path}: too short to be a safetensors file`);
  const headerLength = Number(file.readBigUInt64LE(0));
  if (headerLength > file.byteLength - 8) {
    throw new Error(`${path}: header length ${headerLength} runs past the end of the file`);
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(file.subarray(8, 8 + headerLength).toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new Error(`${path}: the header is not JSON (not a safetensors file?)`);
  }
  const body = file.subarray(8 + headerLength);
  const tensors = new Map<string, NamedTensor>();
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const parsed = Entry.safeParse(raw);
    if (!parsed.success)
      throw new Error(`${path}: header entry ${name} is not { dtype, shape, data_offsets }`);
    const {
      dtype,
      shape,
      data_offsets: [begin, end],
    } = parsed.data;
    if (/^(I|U)\d+$|^BOOL$/.test(dtype)) continue;
    if (end < begin || end > body.byteLength)
      throw new Error(`${path}: tensor ${name} lies outside the file`);
    const data = decode(dtype, body.subarray(begin, end), path, name);
    const expected = shape.reduce((a, b) => a * b, 1);
    if (data.length !== expected) {
      throw new Error(
        `${path}: tensor ${name} holds ${data.length} values, its shape [${shape}] needs ${expected}`,
      );
    }
    tensors.set(name, { shape, data });
  }
  return tensors;
}

/** Writes float32 tensors as a safetensors file's bytes (names sorted, 8-byte aligned header). */
export function encodeSafetensors(
  tensors: ReadonlyMap<string, NamedTensor>,
  metadata: Record<string, string> = {},
): Uint8Array {
  const names = [...tensors.keys()].sort();
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const name of names) {
    const t = tensors.get(name) as NamedTensor;
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const headerBytes = Buffer.from(json, 'utf8');
  const out = new Uint8Array(8 + headerBytes.byteLength + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.byteLength;
  for (const name of names) {
    const t = tensors.get(name) as NamedTensor;
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), at);
    at += t.data.byteLength;
  }
  return out;
}
