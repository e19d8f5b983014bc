import { describe, expect, it } from 'vitest';
import { decodeText, EncodingSniffer } from '../text-decode';
import { parseDelimited } from './delimited';
import { htmlToText } from './html';
import { markdownTitle, parseText } from './text';

// "港口年度报告：集装箱吞吐量增长" in GBK (GB2312 range), as a Chinese Windows editor saves it.
const GBK_HEX = 'b8dbbfdac4eab6c8b1a8b8e6a3babcafd7b0cfe4cdcccdc2c1bfd4f6b3a4';

describe('decodeText', () => {
  it('reads UTF-8, with or without a BOM', () => {
    expect(decodeText(Buffer.from('港口 café', 'utf8'))).toEqual({ text: '港口 café', encoding: 'utf-8' });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hi')]))).toEqual({
      text: 'hi',
      encoding: 'utf-8',
    });
  });

  it('reads UTF-16 with either byte-order mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('灯塔 lighthouse', 'utf16le')]);
    expect(decodeText(le)).toEqual({ text: '灯塔 lighthouse', encoding: 'utf-16le' });
    const be = Buffer.from(le.subarray(2)).swap16();
    expect(decodeText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual({
      text: '灯塔 lighthouse',
      encoding: 'utf-16be',
    });
  });

  it('reads GBK-encoded Chinese as GB18030', () => {
    const bytes = Buffer.from(GBK_HEX, 'hex');
    expect(new TextDecoder('gbk').decode(bytes)).toBe('港口年度报告：集装箱吞吐量增长'); // the fixture is right
    expect(decodeText(bytes)).toEqual({ text: '港口年度报告：集装箱吞吐量增长', encoding: 'gb18030' });
  });

  it('falls back to Latin-1 (Windows-1252) for accented Western text', () => {
    expect(decodeText(Buffer.from('Café au lait, naïve façade.', 'latin1'))).toEqual({
      text: 'Café au lait, naïve façade.',
      encoding: 'windows-1252',
    });
  });
});

describe('EncodingSniffer', () => {
  it('chooses what decodeText chooses from the same bytes given one at a time', () => {
    const gbk = Buffer.from(GBK_HEX, 'hex');
    const cases: [Buffer, string, number][] = [
      [Buffer.from('港口 café', 'utf8'), 'utf-8', 0],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hi')]), 'utf-8', 3],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('灯塔', 'utf16le')]), 'utf-16le', 2],
      [gbk, 'gb18030', 0],
      [Buffer.from('Café au lait', 'latin1'), 'windows-1252', 0],
      // A UTF-8 sequence cut short by the end of the file is not UTF-8 (here it reads as GB18030).
      [Buffer.from([0x61, 0xe6, 0xb8]), 'gb18030', 0],
    ];
    for (const [bytes, encoding, skip] of cases) {
      const sniffer = new EncodingSniffer();
      for (const byte of bytes) sniffer.push(Uint8Array.of(byte));
      expect(sniffer.result()).toMatchObject({ encoding, skip });
      expect(decodeText(bytes).encoding).toBe(encoding);
    }
  });
});

describe('parseText and markdownTitle', () => {
  it('splits paragraphs on blank lines and keeps a markdown title', () => {
    const md = '# Tide tables\r\n\r\nHigh water at 06:12.\nLow water at 12:30.\n\n\n- Spring tides\n';
    expect(parseText(md)).toEqual([
      { page: 1, paragraphs: ['# Tide tables', 'High water at 06:12.\nLow water at 12:30.', '- Spring tides'] },
    ]);
    expect(markdownTitle(md)).toBe('Tide tables');
  });
});

describe('parseDelimited', () => {
  it('reads CSV with quoted commas, doubled quotes and line breaks into a markdown table', async () => {
    const csv = 'port,note\r\nTidewick,"busy, very"\r\n"Gull""rock","two\nlines"\r\n';
    expect(await parseDelimited(csv, 'csv')).toEqual([
      { page: 1, paragraphs: ['| port | note |\n| --- | --- |\n| Tidewick | busy, very |\n| Gull"rock | two lines |'] },
    ]);
  });

  it('reads the same table from text in pieces, however the pieces cut its fields, quotes and line breaks', async () => {
    const csv = '\uFEFFport,note\r\nTidewick,"busy, very"\r\n"Gull""rock","two\r\nlines"\r\nLast,"end"""\r\n,\r\n';
    const whole = await parseDelimited(csv, 'csv');
    expect(whole[0]!.paragraphs).toEqual([
      '| port | note |\n| --- | --- |\n| Tidewick | busy, very |\n| Gull"rock | two lines |\n| Last | end" |',
    ]);
    for (const size of [1, 2, 3, 7]) {
      const pieces = Array.from({ length: Math.ceil(csv.length / size) }, (_, i) =>
        csv.slice(i * size, i * size + size),
      );
      expect(await parseDelimited(() => pieces, 'csv')).toEqual(whole);
    }
  });

  it('reads TSV, and semicolon CSV as spreadsheets in some locales write it', async () => {
    expect((await parseDelimited('a\tb\n1\t2\n', 'tsv'))[0]!.paragraphs).toEqual([
      '| a | b |\n| --- | --- |\n| 1 | 2 |',
    ]);
    expect((await parseDelimited('a;b\n1,5;2\n', 'csv'))[0]!.paragraphs).toEqual([
      '| a | b |\n| --- | --- |\n| 1,5 | 2 |',
    ]);
  });
});

describe('htmlToText', () => {
  it('keeps readable text and the title; drops scripts and styles; tables and lists survive', () => {
    const html = `<!doctype html><html><head><title>Harbour &amp; Sea</title><style>p{color:red}</style>
      <script>alert("x")</script></head><body><nav>Home</nav><h1>Welcome</h1>
      <p>Boats <b>arrive</b> at dawn.<br>Leave at dusk.</p><ul><li>Tugs<ul><li>Small</li></ul></li><li>Ferries</li></ul>
      <table><tr><th>Day</th><th>Tide</th></tr><tr><td>Mon</td><td>06:12</td></tr></table><div>Bye</div></body></html>`;
    expect(htmlToText(html)).toEqual({
      title: 'Harbour & Sea',
      paragraphs: [
        'Home',
        '# Welcome',
        'Boats arrive at dawn.\nLeave at dusk.',
        '- Tugs',
        '  - Small',
        '- Ferries',
        '| Day | Tide |\n| --- | --- |\n| Mon | 06:12 |',
        'Bye',
      ],
    });
  });
});
