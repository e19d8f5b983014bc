/** The scripted model server's images endpoint (POST /v1/images/generations, OpenAI's shape): a PNG of one colour,
 *  the colour named in the prompt as #rrggbb (grey otherwise), of the size asked ("WxH", at most 2048 a side). It
 *  answers the image inline (b64_json), or by an address it serves (response_format "url"). */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A width × height PNG filled with one RGB colour. */
export function solidPng(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The colour a prompt names (#rrggbb), else grey. */
export function promptColour(prompt: string): [number, number, number] {
  const m = /#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})\b/i.exec(prompt);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : [128, 128, 128];
}

/** The size asked ("WxH"), 256 × 256 when none or a bad one, at most 2048 a side. */
export function imageSize(size: unknown): { width: number; height: number } {
  const m = typeof size === 'string' ? /^(\d+)\s*[x*]\s*(\d+)$/i.exec(size.trim()) : null;
  const side = (v: string | undefined) => Math.min(2048, Math.max(1, Number(v)));
  return m ? { width: side(m[1]), height: side(m[2]) } : { width: 256, height: 256 };
}
