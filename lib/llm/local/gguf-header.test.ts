// The GGUF reader on files the project's writer makes (the same ones node-llama-cpp loads in the integration tests),
// cross-checked against node-llama-cpp's own GGUF parser, and on the ways a file can be wrong.
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHATML_TOOLS_TEMPLATE } from '../../../scripts/tiny-gguf/chat-template';
import { encodeGguf } from '../../../scripts/tiny-gguf/gguf-writer';
import { writeTinyModel, type TinyModel } from '../../../scripts/tiny-gguf/tiny-model';
import { GgufFormatError, readGgufHeader } from './gguf-header';

const dir = mkdtempSync(path.join(tmpdir(), 'gguf-header-'));
const file = path.join(dir, 'tiny.gguf');
let tiny: TinyModel;
beforeAll(() => {
  tiny = writeTinyModel(file);
});

const write = (name: string, bytes: Buffer | string) => {
  const p = path.join(dir, name);
  writeFileSync(p, bytes);
  return p;
};

async function problemOf(p: string): Promise<{ problem: string; message: string }> {
  try {
    await readGgufHeader(p);
  } catch (e) {
    if (e instanceof GgufFormatError) return { problem: e.problem, message: e.message };
    throw e;
  }
  throw new Error('expected a GgufFormatError');
}

describe('readGgufHeader', () => {
  it('reads the header, the metadata and the tensor table of a written model', async () => {
    const h = await readGgufHeader(file);
    expect(h.version).toBe(3);
    expect(h.architecture).toBe('llama');
    expect(h.name).toBe('Agent Studio tiny test model');
    expect(h.contextLength).toBe(4096);
    expect(h.chatTemplate).toBe(CHATML_TOOLS_TEMPLATE);
    expect(h.fileType).toBe(1);
    expect(h.quantization).toBe('F16');
    expect(h.parameterCount).toBe(tiny.parameterCount);
    expect(h.tensorCount).toBe(2 + 2 * 9 + 1);
    expect(h.fileSize).toBe(tiny.bytes.length);
    expect(h.tensorDataEnd).toBe(h.fileSize);
    expect(h.metadata['llama.block_count']).toBe(2);
    expect(h.metadata['tokenizer.ggml.add_bos_token']).toBe(false);
    // Long arrays are summarised, not kept.
    expect(h.metadata['tokenizer.ggml.tokens']).toEqual({ arrayOf: 'string', length: tiny.vocabularySize });
  });

  it('agrees with node-llama-cpp on the same file', async () => {
    const { readGgufFileInfo } = await import('node-llama-cpp');
    const theirs = await readGgufFileInfo(file, { readTensorInfo: true });
    const ours = await readGgufHeader(file);
    expect(ours.tensorCount).toBe(theirs.tensorInfo?.length);
    expect(ours.metadata['llama.embedding_length']).toBe(theirs.metadata.llama?.embedding_length);
    expect(ours.chatTemplate).toBe(theirs.metadata.tokenizer?.chat_template);
    const elements = theirs.tensorInfo!.reduce(
      (n, t) => n + t.dimensions.reduce<number>((a, b) => a * Number(b), 1),
      0,
    );
    expect(ours.parameterCount).toBe(elements);
  });

  it('refuses a file cut inside its tensor data, saying how much is there', async () => {
    const cut = write('cut.gguf', readFileSync(file));
    truncateSync(cut, Math.floor(tiny.bytes.length * 0.6));
    const { problem, message } = await problemOf(cut);
    expect(problem).toBe('truncated');
    expect(message).toMatch(/truncated: it has \d+ bytes but its tensors need \d+ \(59\.\d% present\)/);
  });

  it('refuses a file cut by one byte (the last tensor is incomplete)', async () => {
    const cut = write('cut1.gguf', tiny.bytes.subarray(0, tiny.bytes.length - 1));
    expect((await problemOf(cut)).problem).toBe('truncated');
  });

  it('refuses a file cut inside its header', async () => {
    const cut = write('cut-header.gguf', tiny.bytes.subarray(0, 3000));
    const { problem, message } = await problemOf(cut);
    expect(problem).toBe('truncated');
    expect(message).toMatch(/ends at byte 3000 while reading .*header is incomplete/);
  });

  it.each([
    ['an HTML error page', '<!DOCTYPE html><html><body>Sign in</body></html>', /web page/],
    ['a JSON error', '{"error": "Repository not found"}', /JSON text/],
    ['an old GGJT model', Buffer.concat([Buffer.from('tjgg'), Buffer.alloc(64)]), /older GGML\/GGJT/],
    ['random bytes', Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]), /starts with "GGUF", it starts with/],
  ])('refuses %s as not a GGUF', async (_label, bytes, message) => {
    const p = write('wrong.bin', bytes);
    const r = await problemOf(p);
    expect(r.problem).toBe('not-gguf');
    expect(r.message).toMatch(message);
  });

  it('refuses an empty file', async () => {
    expect(await problemOf(write('empty.gguf', ''))).toEqual({ problem: 'truncated', message: 'The file is empty.' });
  });

  it('refuses versions it cannot read, and big-endian files', async () => {
    const v1 = Buffer.from(tiny.bytes);
    v1.writeUInt32LE(1, 4);
    expect(await problemOf(write('v1.gguf', v1))).toMatchObject({ problem: 'unsupported', message: /version 1/ });
    const be = Buffer.from(tiny.bytes);
    be.writeUInt32BE(3, 4);
    expect(await problemOf(write('be.gguf', be))).toMatchObject({ problem: 'unsupported', message: /big-endian/ });
  });

  it('refuses an unknown metadata value type and an unknown tensor type', async () => {
    const odd = encodeGguf({
      metadata: { 'general.architecture': { type: 'string', value: 'llama' } },
      tensors: [{ name: 't', dims: [4], type: 'F32', data: new Float32Array(4) }],
    });
    const badValue = Buffer.from(odd);
    badValue.writeUInt32LE(99, 24 + 8 + 'general.architecture'.length); // the value type of the first key
    expect(await problemOf(write('bad-value.gguf', badValue))).toMatchObject({
      problem: 'corrupt',
      message: /general\.architecture has an unknown value type \(99\)/,
    });
    const badTensor = Buffer.from(odd);
    const kv = 8 + 'general.architecture'.length + 4 + 8 + 'llama'.length;
    badTensor.writeUInt32LE(77, 24 + kv + (8 + 1) + 4 + 8); // the type field of tensor 't'
    expect(await problemOf(write('bad-tensor.gguf', badTensor))).toMatchObject({
      problem: 'unsupported',
      message: /ggml type 77/,
    });
  });

  it('reads file type and size label when present, and falls back to the tensor types without file_type', async () => {
    const bytes = encodeGguf({
      metadata: {
        'general.architecture': { type: 'string', value: 'qwen2' },
        'general.size_label': { type: 'string', value: '0.5B' },
        'qwen2.context_length': { type: 'u64', value: 32768 },
      },
      tensors: [{ name: 'w', dims: [8, 2], type: 'F16', data: new Float32Array(16) }],
    });
    const h = await readGgufHeader(write('labels.gguf', bytes));
    expect(h).toMatchObject({ architecture: 'qwen2', sizeLabel: '0.5B', contextLength: 32768, quantization: 'F16' });
    expect(h.fileType).toBeUndefined();
    expect(h.parameterCount).toBe(16);
  });
});
