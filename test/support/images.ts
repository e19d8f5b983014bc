// Image files for the upload tests, made with libvips (sharp) or, for the hostile ones, byte by byte.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A real image of `format`, `width` × `height`, one colour. */
export function makeImage(
  format: 'png' | 'jpeg' | 'webp' | 'gif',
  width = 64,
  height = 48,
  colour = '#3366cc',
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A decompression bomb: a valid PNG of a few hundred bytes whose header says `side` × `side` grey pixels (its
 *  data would inflate to side² bytes). */
export function pngBomb(side = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc(side + 1), { level: 9 }); // the first row; the rest never comes
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Python (standard library only: Pyodide runs it too) that writes a 2 × 2 red PNG, figure-1.png, and prints "saved". */
export const PYTHON_WRITES_PNG = [
  'import struct, zlib',
  'def chunk(kind, data):',
  '    body = kind + data',
  "    return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)",
  "rows = b''.join(b'\\x00' + b'\\xff\\x00\\x00' * 2 for _ in range(2))",
  "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 2, 2, 8, 2, 0, 0, 0))",
  "png += chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b'')",
  "open('figure-1.png', 'wb').write(png)",
  "print('saved')",
].join('\n');
