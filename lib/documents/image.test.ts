import { describe, expect, it } from 'vitest';
import { makeImage, pngBomb } from '../../test/support/images';
import { checkImage } from './image';
import { sniffImage } from './image-kind';
import { DocumentError } from './types';

const limits = { maxBytes: 1024 * 1024, maxPixels: 4_000_000 };

async function refusal(bytes: Uint8Array, name: string): Promise<DocumentError> {
  const e = await checkImage(bytes, name, limits).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof DocumentError)) throw new Error(`expected a DocumentError, got ${String(e)}`);
  return e;
}

describe('image uploads', () => {
  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('accepts a %s image and reads its size', async (format) => {
    const bytes = await makeImage(format, 120, 80);
    expect(sniffImage(bytes)).toBe(format);
    expect(await checkImage(bytes, `photo.${format}`, limits)).toEqual({ kind: format, width: 120, height: 80 });
  });

  it('goes by the bytes, not the name: a PNG called .jpg is a PNG; text called .png is no image', async () => {
    expect((await checkImage(await makeImage('png'), 'holiday.jpg', limits)).kind).toBe('png');
    expect(sniffImage(Buffer.from('just words, not a picture'))).toBeUndefined();
    const e = await refusal(Buffer.from('just words, not a picture'), 'fake.png');
    expect([e.code, e.message]).toEqual(['unsupported', 'fake.png is not a PNG, JPEG, WebP or GIF image.']);
  });

  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('refuses a truncated %s file as damaged', async (format) => {
    const whole = await makeImage(format, 200, 150, '#884422');
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    const e = await refusal(cut, `cut.${format}`);
    expect(e.code).toBe('corrupt');
    expect(e.message).toMatch(new RegExp(`^cut\\.${format} is a damaged or incomplete \\w+ image \\(.+\\); save`));
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const bomb = pngBomb(100_000);
    expect(bomb.length).toBeLessThan(1024); // tiny on disk, 10 gigapixels once decoded
    const e = await refusal(bomb, 'bomb.png');
    expect(e.code).toBe('too-many-pixels');
    expect(e.message).toBe(
      'bomb.png is 100000 × 100000 pixels (10000 megapixels); images may have at most 4 megapixels. A small file ' +
        'that opens to this many pixels can exhaust the memory of whoever decodes it; scale the image down and ' +
        'upload it again.',
    );
  });

  it('refuses an image over the size limit', async () => {
    const bytes = await makeImage('png', 300, 300);
    const e = await checkImage(bytes, 'big.png', { ...limits, maxBytes: 100 }).catch((err: DocumentError) => err);
    expect(e).toMatchObject({
      code: 'too-large',
      message: expect.stringMatching(/^big\.png is larger than the 100 bytes limit per image/),
    });
  });
});
