// Reads what a GGUF file says about itself (ggml's docs/gguf.md): the header, the metadata key-values and the tensor
// table, without the tensor data. A file that is not a GGUF, is damaged, or is shorter than its own tensor table
// says (a cut download) is refused with a GgufFormatError that says why in words.
import { open, type FileHandle } from 'node:fs/promises';
import { GGML_TYPES, GGUF_FILE_TYPES, tensorByteSize } from './ggml-types';

export type GgufProblem = 'not-gguf' | 'truncated' | 'unsupported' | 'corrupt';

export class GgufFormatError extends Error {
  override name = 'GgufFormatError';
  constructor(
    readonly problem: GgufProblem,
    message: string,
  ) {
    super(message);
  }
}

/** An array kept only as its length and item type: token lists and merges run to hundreds of thousands. */
export interface GgufArraySummary {
  arrayOf: string;
  length: number;
}
export type GgufMetadataValue = number | boolean | string | GgufArraySummary | GgufMetadataValue[];

export interface GgufHeader {
  version: number;
  tensorCount: number;
  metadata: Record<string, GgufMetadataValue>;
  /** general.architecture: 'llama', 'qwen2', 'qwen3'… */
  architecture: string;
  /** general.name */
  name?: string;
  /** `<architecture>.context_length`: the context the model was trained for. */
  contextLength?: number;
  /** tokenizer.chat_template (Jinja) */
  chatTemplate?: string;
  /** general.file_type, and its name (Q4_K_M, Q8_0, F16…). */
  fileType?: number;
  quantization?: string;
  /** general.size_label as the converter wrote it ('0.5B'). */
  sizeLabel?: string;
  /** Elements in all tensors. */
  parameterCount: number;
  alignment: number;
  /** Where the tensor data starts and ends (bytes from the start of the file). */
  tensorDataOffset: number;
  tensorDataEnd: number;
  fileSize: number;
}

/** Arrays up to this many items are kept whole (e.g. general.tags); longer ones only as a summary. */
const KEEP_ARRAY_ITEMS = 64;
const MAX_KEY_BYTES = 65_535;
const MAX_DIMS = 4; // GGML_MAX_DIMS
const CHUNK = 1 << 20;

const VALUE_TYPE_NAMES = [
  'uint8',
  'int8',
  'uint16',
  'int16',
  'uint32',
  'int32',
  'float32',
  'bool',
  'string',
  'array',
  'uint64',
  'int64',
  'float64',
];
const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** Reads a file front to back in chunks; running out of bytes is a truncated header. */
class ChunkReader {
  private buf = Buffer.alloc(0);
  private bufStart = 0; // file offset of buf[0]
  pos = 0;

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
  ) {}

  private async need(n: number, what: string): Promise<void> {
    if (this.pos + n > this.size) {
      throw new GgufFormatError(
        'truncated',
        `The file is truncated: it ends at byte ${this.size} while reading ${what} (its GGUF header is incomplete).`,
      );
    }
    const have = this.bufStart + this.buf.length - this.pos;
    if (have >= n) return;
    const keep = this.buf.subarray(this.pos - this.bufStart);
    const want = Math.max(n - keep.length, CHUNK);
    const fresh = Buffer.alloc(Math.min(want, this.size - (this.pos + keep.length)));
    const { bytesRead } = await this.fh.read(fresh, 0, fresh.length, this.pos + keep.length);
    this.buf = Buffer.concat([keep, fresh.subarray(0, bytesRead)]);
    this.bufStart = this.pos;
  }

  private at(): number {
    return this.pos - this.bufStart;
  }

  async u32(what: string): Promise<number> {
    await this.need(4, what);
    const v = this.buf.readUInt32LE(this.at());
    this.pos += 4;
    return v;
  }

  async u64(what: string): Promise<number> {
    await this.need(8, what);
    const v = this.buf.readBigUInt64LE(this.at());
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw new GgufFormatError('corrupt', `The GGUF header is damaged: ${what} is ${v}, which cannot be right.`);
    return Number(v);
  }

  async scalar(type: number, what: string): Promise<number | boolean> {
    const n = SCALAR_BYTES[type]!;
    await this.need(n, what);
    const i = this.at();
    this.pos += n;
    const b = this.buf;
    switch (type) {
      case 0:
        return b.readUInt8(i);
      case 1:
        return b.readInt8(i);
      case 2:
        return b.readUInt16LE(i);
      case 3:
        return b.readInt16LE(i);
      case 4:
        return b.readUInt32LE(i);
      case 5:
        return b.readInt32LE(i);
      case 6:
        return b.readFloatLE(i);
      case 7:
        return b.readUInt8(i) !== 0;
      case 10:
        return Number(b.readBigUInt64LE(i));
      case 11:
        return Number(b.readBigInt64LE(i));
      default:
        return b.readDoubleLE(i);
    }
  }

  async string(what: string, limit = Number.MAX_SAFE_INTEGER): Promise<string> {
    const len = await this.u64(`the length of ${what}`);
    if (len > limit) throw new GgufFormatError('corrupt', `The GGUF header is damaged: ${what} claims ${len} bytes.`);
    await this.need(len, what);
    const s = this.buf.toString('utf8', this.at(), this.at() + len);
    this.pos += len;
    return s;
  }

  async skip(n: number, what: string): Promise<void> {
    if (this.pos + n > this.size) await this.need(n, what);
    this.pos += n;
  }

  async skipString(what: string): Promise<void> {
    await this.skip(await this.u64(`the length of ${what}`), what);
  }
}

/** Why a file whose first bytes are `head` is not a GGUF (a web page, JSON, an old GGML file...), in words. */
export function describeStart(head: Buffer): string {
  if (head.length === 0) return 'The file is empty.';
  const text = head.toString('latin1');
  const lower = text.trimStart().toLowerCase();
  const shown = `it starts with ${JSON.stringify(text.slice(0, 8).replace(/[^\x20-\x7e]/g, '.'))}`;
  if (lower.startsWith('<!doctype') || lower.startsWith('<html') || lower.startsWith('<?xml'))
    return `Not a GGUF file: it is a web page (${shown}), perhaps a login or error page instead of the model.`;
  if (lower.startsWith('{') || lower.startsWith('['))
    return `Not a GGUF file: it is JSON text (${shown}), perhaps an error message instead of the model.`;
  if (text.startsWith('lmgg') || text.startsWith('fmgg') || text.startsWith('tjgg'))
    return 'Not a GGUF file: it is an older GGML/GGJT model file; convert it to GGUF with llama.cpp.';
  if (text.startsWith('PK')) return `Not a GGUF file: it is a zip archive (${shown}).`;
  if (head.length >= 10 && head.readBigUInt64LE(0) < 100_000_000n && head.subarray(8, 10).toString() === '{"')
    return 'Not a GGUF file: it is a safetensors file; llama.cpp needs it converted to GGUF.';
  return `Not a GGUF file: a GGUF file starts with "GGUF", ${shown}.`;
}

async function readValue(r: ChunkReader, type: number, key: string, depth: number): Promise<GgufMetadataValue> {
  if (type === 8) return r.string(`the value of ${key}`);
  if (type in SCALAR_BYTES) return r.scalar(type, `the value of ${key}`);
  if (type !== 9 || depth > 3)
    throw new GgufFormatError('corrupt', `The GGUF header is damaged: ${key} has an unknown value type (${type}).`);
  const itemType = await r.u32(`the item type of ${key}`);
  const length = await r.u64(`the length of ${key}`);
  const arrayOf = VALUE_TYPE_NAMES[itemType];
  if (!arrayOf)
    throw new GgufFormatError('corrupt', `The GGUF header is damaged: ${key} is an array of unknown type ${itemType}.`);
  if (length <= KEEP_ARRAY_ITEMS) {
    const items: GgufMetadataValue[] = [];
    for (let i = 0; i < length; i++) items.push(await readValue(r, itemType, `${key}[${i}]`, depth + 1));
    return items;
  }
  if (itemType in SCALAR_BYTES) await r.skip(length * SCALAR_BYTES[itemType]!, `the items of ${key}`);
  else if (itemType === 8) for (let i = 0; i < length; i++) await r.skipString(`${key}[${i}]`);
  else for (let i = 0; i < length; i++) await readValue(r, itemType, `${key}[${i}]`, depth + 1);
  return { arrayOf, length };
}

const asNumber = (v: GgufMetadataValue | undefined) => (typeof v === 'number' ? v : undefined);
const asString = (v: GgufMetadataValue | undefined) => (typeof v === 'string' ? v : undefined);

/** The header and metadata of the GGUF at `file`; throws GgufFormatError when it is not a usable GGUF. */
export async function readGgufHeader(file: string): Promise<GgufHeader> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(16, size));
    await fh.read(head, 0, head.length, 0);
    if (head.length < 4 || head.toString('latin1', 0, 4) !== 'GGUF') {
      throw new GgufFormatError(size === 0 ? 'truncated' : 'not-gguf', describeStart(head));
    }
    const r = new ChunkReader(fh, size);
    r.pos = 4;
    const version = await r.u32('the version');
    if (version > 0xffff)
      throw new GgufFormatError(
        'unsupported',
        'This GGUF file is big-endian; only little-endian files can be run here.',
      );
    if (version < 2 || version > 3)
      throw new GgufFormatError(
        'unsupported',
        `GGUF version ${version} is not supported (llama.cpp reads versions 2 and 3).`,
      );
    const tensorCount = await r.u64('the tensor count');
    const kvCount = await r.u64('the metadata count');

    const metadata: Record<string, GgufMetadataValue> = {};
    for (let i = 0; i < kvCount; i++) {
      const key = await r.string(`metadata key ${i + 1}`, MAX_KEY_BYTES);
      const type = await r.u32(`the type of ${key}`);
      metadata[key] = await readValue(r, type, key, 0);
    }
    const alignment = asNumber(metadata['general.alignment']) ?? 32;
    if (!Number.isInteger(alignment) || alignment <= 0 || alignment % 8)
      throw new GgufFormatError('corrupt', `The GGUF header is damaged: general.alignment is ${alignment}.`);

    let parameterCount = 0;
    let dataExtent = 0;
    const bytesByType = new Map<number, number>();
    for (let i = 0; i < tensorCount; i++) {
      const name = await r.string(`the name of tensor ${i + 1}`, MAX_KEY_BYTES);
      const nDims = await r.u32(`the dimensions of ${name}`);
      if (nDims > MAX_DIMS)
        throw new GgufFormatError('corrupt', `The GGUF header is damaged: tensor ${name} has ${nDims} dimensions.`);
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(await r.u64(`a dimension of ${name}`));
      const type = await r.u32(`the type of ${name}`);
      const offset = await r.u64(`the offset of ${name}`);
      const bytes = tensorByteSize(type, dims);
      if (bytes === undefined) {
        throw new GgufFormatError(
          GGML_TYPES[type] ? 'corrupt' : 'unsupported',
          GGML_TYPES[type]
            ? `The GGUF header is damaged: tensor ${name} (${GGML_TYPES[type].name}) has dimensions ${dims.join('×')}.`
            : `Tensor ${name} uses ggml type ${type}, which this version does not know (a newer quantisation?).`,
        );
      }
      if (offset % alignment)
        throw new GgufFormatError('corrupt', `The GGUF header is damaged: tensor ${name} is not aligned.`);
      parameterCount += dims.reduce((a, b) => a * b, 1);
      bytesByType.set(type, (bytesByType.get(type) ?? 0) + bytes);
      dataExtent = Math.max(dataExtent, offset + bytes);
    }
    const tensorDataOffset = r.pos + ((alignment - (r.pos % alignment)) % alignment);
    const tensorDataEnd = tensorDataOffset + dataExtent;
    if (tensorDataEnd > size) {
      const percent = Math.floor((size / tensorDataEnd) * 1000) / 10;
      throw new GgufFormatError(
        'truncated',
        `The file is truncated: it has ${size} bytes but its tensors need ${tensorDataEnd} (${percent}% present). ` +
          'The download was probably cut; download it again.',
      );
    }

    const architecture = asString(metadata['general.architecture']);
    if (!architecture)
      throw new GgufFormatError('corrupt', 'The GGUF header has no general.architecture: not a model file.');
    const fileType = asNumber(metadata['general.file_type']);
    return {
      version,
      tensorCount,
      metadata,
      architecture,
      name: asString(metadata['general.name']),
      contextLength: asNumber(metadata[`${architecture}.context_length`]),
      chatTemplate: asString(metadata['tokenizer.chat_template']),
      fileType,
      // Without general.file_type, the type holding most of the bytes says it.
      quantization:
        fileType === undefined
          ? GGML_TYPES[[...bytesByType].sort((a, b) => b[1] - a[1])[0]?.[0] ?? -1]?.name
          : GGUF_FILE_TYPES[fileType],
      sizeLabel: asString(metadata['general.size_label']),
      parameterCount,
      alignment,
      tensorDataOffset,
      tensorDataEnd,
      fileSize: size,
    };
  } finally {
    await fh.close();
  }
}
