// A GGUF (version 3, little-endian) encoder for the test suite: metadata key-values, then tensor infos, then the
// tensor data, each tensor aligned to `general.alignment` (32 unless given). Only the tensor types the tiny models
// use (F32, F16) are encoded here; the reader in lib/llm/local knows them all.

export type GgufScalarType = 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32' | 'f32' | 'bool' | 'u64' | 'i64' | 'f64';

export type GgufValue =
  | { type: GgufScalarType; value: number | boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; itemType: GgufScalarType | 'string'; values: readonly (number | boolean | string)[] };

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the innermost (contiguous) dimension. */
  dims: readonly number[];
  type: 'F32' | 'F16';
  data: Float32Array;
}

// gguf_metadata_value_type and ggml_type codes (ggml's docs/gguf.md).
const VALUE_TYPE: Record<GgufScalarType | 'string' | 'array', number> = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12,
};
const TENSOR_TYPE = { F32: 0, F16: 1 } as const;

/** Little-endian byte sink that grows as it is written. */
class Sink {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u8(v: number) {
    this.room(1);
    this.buf.writeUInt8(v, this.length);
    this.length += 1;
  }
  i8(v: number) {
    this.room(1);
    this.buf.writeInt8(v, this.length);
    this.length += 1;
  }
  u16(v: number) {
    this.room(2);
    this.buf.writeUInt16LE(v, this.length);
    this.length += 2;
  }
  i16(v: number) {
    this.room(2);
    this.buf.writeInt16LE(v, this.length);
    this.length += 2;
  }
  u32(v: number) {
    this.room(4);
    this.buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }
  i32(v: number) {
    this.room(4);
    this.buf.writeInt32LE(v, this.length);
    this.length += 4;
  }
  f32(v: number) {
    this.room(4);
    this.buf.writeFloatLE(v, this.length);
    this.length += 4;
  }
  f64(v: number) {
    this.room(8);
    this.buf.writeDoubleLE(v, this.length);
    this.length += 8;
  }
  u64(v: number | bigint) {
    this.room(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.length);
    this.length += 8;
  }
  i64(v: number | bigint) {
    this.room(8);
    this.buf.writeBigInt64LE(BigInt(v), this.length);
    this.length += 8;
  }
  bytes(b: Uint8Array) {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  string(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  padTo(alignment: number) {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.room(pad);
    this.length += pad; // the buffer is zero-filled
  }
  result(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

function writeScalar(out: Sink, type: GgufScalarType, value: number | boolean | string): void {
  const n = Number(value);
  switch (type) {
    case 'bool':
      return out.u8(value ? 1 : 0);
    case 'u8':
      return out.u8(n);
    case 'i8':
      return out.i8(n);
    case 'u16':
      return out.u16(n);
    case 'i16':
      return out.i16(n);
    case 'u32':
      return out.u32(n);
    case 'i32':
      return out.i32(n);
    case 'f32':
      return out.f32(n);
    case 'u64':
      return out.u64(n);
    case 'i64':
      return out.i64(n);
    case 'f64':
      return out.f64(n);
  }
}

function writeValue(out: Sink, v: GgufValue): void {
  if (v.type === 'string') return out.string(v.value);
  if (v.type === 'array') {
    out.u32(VALUE_TYPE[v.itemType]);
    out.u64(v.values.length);
    for (const item of v.values) {
      if (v.itemType === 'string') out.string(String(item));
      else writeScalar(out, v.itemType, item);
    }
    return;
  }
  writeScalar(out, v.type, v.value);
}

/** IEEE 754 binary16 bits of a float, rounded to nearest even. */
export function float16Bits(value: number): number {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // inf / nan
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow to inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow to zero
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const midpoint = 1 << (shift - 1);
    if (rest > midpoint || (rest === midpoint && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++; // may carry into the exponent, which is still right
  e = half >>> 10;
  return sign | half;
}

function tensorBytes(t: GgufTensor): Buffer {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (t.data.length !== count) throw new Error(`tensor ${t.name}: ${t.data.length} values for dims ${t.dims}`);
  if (t.type === 'F32') return Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const out = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) out.writeUInt16LE(float16Bits(t.data[i]!), i * 2);
  return out;
}

export interface GgufFile {
  metadata: Record<string, GgufValue>;
  tensors: readonly GgufTensor[];
}

/** The bytes of a GGUF v3 file holding `metadata` and `tensors`. */
export function encodeGguf(file: GgufFile): Buffer {
  const alignmentEntry = file.metadata['general.alignment'];
  const alignment =
    alignmentEntry && alignmentEntry.type !== 'string' && alignmentEntry.type !== 'array'
      ? Number(alignmentEntry.value)
      : 32;
  const data = file.tensors.map(tensorBytes);

  const out = new Sink();
  out.bytes(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(file.tensors.length);
  out.u64(Object.keys(file.metadata).length);
  for (const [key, value] of Object.entries(file.metadata)) {
    out.string(key);
    out.u32(VALUE_TYPE[value.type]);
    writeValue(out, value);
  }
  let offset = 0;
  file.tensors.forEach((t, i) => {
    out.string(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(d);
    out.u32(TENSOR_TYPE[t.type]);
    out.u64(offset);
    offset += data[i]!.length;
    offset += (alignment - (offset % alignment)) % alignment;
  });
  out.padTo(alignment);
  for (const bytes of data) {
    out.bytes(bytes);
    out.padTo(alignment);
  }
  return out.result();
}
