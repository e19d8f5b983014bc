// A minimal PDF writer (PDF syntax by hand: Helvetica text at given positions, optional image-only pages), so tests
// and the ingest bench make real PDFs without a PDF library. The cross-reference table has exact offsets.

export interface PdfText {
  x: number;
  y: number;
  text: string;
  size?: number;
}

export type PdfPage = { texts: PdfText[] } | { image: true };

function escape(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
}

export function makePdf(pages: PdfPage[], opts: { title?: string } = {}): Buffer {
  const objects: string[] = []; // objects[i] is object number i + 1
  const add = (body: string) => objects.push(body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const page of pages) {
    let content: string;
    let resources: string;
    if ('image' in page) {
      // A 2×2 grey image scaled over the page: what a scan without OCR looks like to a text extractor.
      const image = add(
        '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x40\x40\x80\nendstream',
      );
      content = 'q 500 0 0 700 50 50 cm /Im1 Do Q';
      resources = `<< /XObject << /Im1 ${image} 0 R >> >>`;
    } else {
      content = page.texts
        .map((t) => `BT /F1 ${t.size ?? 12} Tf ${t.x} ${t.y} Td (${escape(t.text)}) Tj ET`)
        .join('\n');
      resources = '<< /Font << /F1 3 0 R >> >>';
    }
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources ${resources} /Contents ${stream} 0 R >>`),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = opts.title
    ? add(`<< /Title (${escape(opts.title)}) /Producer (agent-studio test writer) >>`)
    : undefined;
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info ? ` /Info ${info} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A text page: a heading, then paragraphs of wrapped lines (12 pt, 14 pt leading). */
export function textPage(heading: string, paragraphs: string[]): PdfPage {
  const texts: PdfText[] = [{ x: 72, y: 740, text: heading, size: 18 }];
  let y = 700;
  for (const p of paragraphs) {
    const words = p.split(' ');
    let line = '';
    for (const w of words) {
      if ((line + ' ' + w).length > 85) {
        texts.push({ x: 72, y, text: line });
        y -= 14;
        line = w;
      } else line = line ? `${line} ${w}` : w;
    }
    if (line) texts.push({ x: 72, y, text: line });
    y -= 28;
  }
  return { texts };
}
