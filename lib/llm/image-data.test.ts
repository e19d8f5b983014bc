import { describe, expect, it } from 'vitest';
import { inlineImages, urlImagesOnly } from './image-data';
import type { WireMessage } from './oai-wire';
import { nameSuggestsVision } from './capabilities';
import { seesImages } from './vision';

describe('image parts as a request leaves', () => {
  it('leaves messages without image parts as they are (the same array)', async () => {
    const messages: WireMessage[] = [{ role: 'user', content: 'hello' }];
    expect(await inlineImages(messages, urlImagesOnly)).toBe(messages);
  });

  it('resolves each image part, and says so in text when an image cannot be read', async () => {
    const messages: WireMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image_url', image_url: { url: `files/${'a'.repeat(64)}/cat.png` } },
          { type: 'image_url', image_url: { url: '/etc/passwd' } },
          { type: 'image_url', image_url: { url: 'https://example.org/dog.jpg' } },
        ],
      },
    ];
    const out = await inlineImages(messages, async (ref) =>
      ref.startsWith('files/') ? 'data:image/png;base64,AAAA' : urlImagesOnly(ref),
    );
    expect(out[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Compare these.' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'text', text: '(The image passwd is no longer available.)' },
        { type: 'image_url', image_url: { url: 'https://example.org/dog.jpg' } },
      ],
    });
    expect((messages[0]!.content as unknown[])[1]).toEqual({
      type: 'image_url',
      image_url: { url: `files/${'a'.repeat(64)}/cat.png` },
    }); // the request event keeps the reference
  });
});

describe('which models see images', () => {
  it.each([
    ['Qwen/Qwen2.5-VL-7B-Instruct', true],
    ['qwen-vl-max', true],
    ['qwen2.5vl:7b', false],
    ['llava-vl:13b', true],
    ['llama-3.2-11b-vision-instruct', true],
    ['gpt-4o-mini', true],
    ['qwen2.5-7b-instruct', false],
    ['scripted-e2e', false],
  ])('%s: %s by its name', (model, sees) => expect(nameSuggestsVision(model)).toBe(sees));

  it('an explicit generate_cfg.multimodal wins, then MODEL_VISION, then the capability', () => {
    expect(seesImages(false, 'on')).toBe(true);
    expect(seesImages(true, 'off')).toBe(false);
    expect(seesImages(true, 'on', false)).toBe(false);
    expect(seesImages(false, 'auto', true)).toBe(true);
    expect(seesImages(false, 'auto')).toBe(false);
    expect(seesImages(true, 'auto')).toBe(true);
  });
});
