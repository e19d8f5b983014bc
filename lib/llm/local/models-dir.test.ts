import { mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTinyModel } from '../../../scripts/tiny-gguf/tiny-model';
import { LOCAL_MODEL_CATALOG } from './catalog';
import { listLocalModels, modelFileName, ModelNameError, resolveLocalModel } from './models-dir';

describe('model names', () => {
  it('makes a safe .gguf file name of a URL path or a typed name', () => {
    expect(modelFileName('/Qwen/x/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf')).toBe(
      'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    );
    expect(modelFileName('../../etc/my model (v2).GGUF')).toBe('my_model_v2_.GGUF');
    expect(modelFileName('weights?download=true')).toBe('weights.gguf');
    expect(modelFileName('%2e%2e%2fsecret')).toBe('secret.gguf');
    expect(() => modelFileName('../')).toThrow(ModelNameError);
  });

  it('resolves a name inside the models folder and refuses any other', () => {
    expect(resolveLocalModel('/data/models', 'qwen/a.gguf')).toBe(path.join('/data/models', 'qwen', 'a.gguf'));
    for (const bad of ['../a.gguf', '/etc/a.gguf', 'a/../../b.gguf', 'a\\b.gguf', '', 'notes.txt', 'a//b.gguf'])
      expect(() => resolveLocalModel('/data/models', bad), bad).toThrow(ModelNameError);
  });
});

describe('listLocalModels', () => {
  it('lists GGUF files with what their headers say, the unusable ones with why, and unfinished downloads', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'models-list-'));
    const tiny = buildTinyModel().bytes;
    writeFileSync(path.join(dir, 'tiny.gguf'), tiny);
    utimesSync(path.join(dir, 'tiny.gguf'), new Date(1000_000), new Date(1000_000));
    mkdirSync(path.join(dir, 'qwen'));
    writeFileSync(path.join(dir, 'qwen', 'cut.gguf'), tiny.subarray(0, 5000));
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'models-elsewhere-'));
    writeFileSync(path.join(elsewhere, 'big.gguf'), tiny);
    symlinkSync(path.join(elsewhere, 'big.gguf'), path.join(dir, 'linked.gguf'));
    writeFileSync(path.join(dir, 'next.gguf.part'), tiny.subarray(0, 100));
    writeFileSync(
      path.join(dir, 'next.gguf.part.json'),
      JSON.stringify({ url: 'https://x/next.gguf', totalBytes: 999 }),
    );
    writeFileSync(path.join(dir, 'README.txt'), 'not a model');

    const { models, partial } = await listLocalModels(dir);
    expect(models.map((m) => m.name).sort()).toEqual(['linked.gguf', 'qwen/cut.gguf', 'tiny.gguf']);
    expect(models.at(-1)!.name).toBe('tiny.gguf'); // the oldest last
    const tinyEntry = models.find((m) => m.name === 'tiny.gguf')!;
    expect(tinyEntry).toMatchObject({
      sizeBytes: tiny.length,
      summary: { architecture: 'llama', quantization: 'F16', hasChatTemplate: true, templateHasTools: true },
    });
    expect(models.find((m) => m.name === 'qwen/cut.gguf')!.problem).toMatch(/truncated/);
    expect(models.find((m) => m.name === 'linked.gguf')!.summary?.architecture).toBe('llama');
    expect(partial).toEqual([{ name: 'next.gguf', receivedBytes: 100, totalBytes: 999, url: 'https://x/next.gguf' }]);
  });

  it('answers an empty list for a folder that does not exist yet', async () => {
    expect(await listLocalModels(path.join(tmpdir(), 'no-such-models-dir-x'))).toEqual({ models: [], partial: [] });
  });
});

describe('LOCAL_MODEL_CATALOG', () => {
  it('lists Qwen instruct GGUFs from the Qwen repositories on huggingface.co, each saved under its own name', () => {
    expect(LOCAL_MODEL_CATALOG.length).toBeGreaterThanOrEqual(3);
    const names = new Set<string>();
    for (const m of LOCAL_MODEL_CATALOG) {
      expect(m.url, m.id).toMatch(/^https:\/\/huggingface\.co\/Qwen\/[\w.-]+-GGUF\/resolve\/main\/[\w.-]+\.gguf$/);
      expect(modelFileName(new URL(m.url).pathname)).toBe(`${m.id}.gguf`);
      expect(m.sizeBytes).toBeGreaterThan(100_000_000);
      expect(m.license).toBeTruthy();
      names.add(m.id);
    }
    expect(names.size).toBe(LOCAL_MODEL_CATALOG.length);
  });
});
