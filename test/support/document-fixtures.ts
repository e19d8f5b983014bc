// Office documents made at test time: the smallest valid OOXML packages (zipped with fflate) for Word and
// PowerPoint, spreadsheets written by SheetJS (xlsx and the binary xls), and the broken ones the parsers must refuse.
import * as XLSX from '@e965/xlsx';
import { strToU8, zipSync, type Zippable } from 'fflate';

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function zip(files: Record<string, string | Uint8Array>): Buffer {
  const entries: Zippable = {};
  for (const [name, body] of Object.entries(files)) entries[name] = typeof body === 'string' ? strToU8(body) : body;
  return Buffer.from(zipSync(entries, { level: 6 }));
}

function coreXml(title: string): string {
  return `${xmlHead}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(title)}</dc:title></cp:coreProperties>`;
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

export type DocxBlock = { heading: string } | { text: string } | { table: string[][] };

export function makeDocx(
  blocks: DocxBlock[],
  opts: { title?: string; extra?: Record<string, Uint8Array> } = {},
): Buffer {
  const para = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  const body = blocks
    .map((b) =>
      'heading' in b
        ? para(b.heading, 'Heading1')
        : 'text' in b
          ? para(b.text)
          : `<w:tbl>${b.table.map((row) => `<w:tr>${row.map((c) => `<w:tc>${para(c)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`,
    )
    .join('');
  return zip({
    '[Content_Types].xml': `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    '_rels/.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'word/styles.xml': `${xmlHead}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'word/document.xml': `${xmlHead}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ...(opts.title ? { 'docProps/core.xml': coreXml(opts.title) } : {}),
    ...opts.extra,
  });
}

export type Slide = { title: string; bullets?: string[]; table?: string[][] };

export function makePptx(slides: Slide[], opts: { title?: string } = {}): Buffer {
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const para = (t: string) => `<a:p><a:r><a:t>${esc(t)}</a:t></a:r></a:p>`;
  const shape = (paras: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paras.map(para).join('')}</p:txBody></p:sp>`;
  const table = (rows: string[][]) =>
    `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${rows.map((r) => `<a:tr h="0">${r.map((c) => `<a:tc><a:txBody><a:bodyPr/>${para(c)}</a:txBody></a:tc>`).join('')}</a:tr>`).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
  const files: Record<string, string> = {
    '[Content_Types].xml': `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`,
    '_rels/.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
    // Slides listed in reverse file order, to prove the presentation's order wins over file names.
    'ppt/presentation.xml': `${xmlHead}<p:presentation xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${R}"><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${R}/slide" Target="slides/slide${slides.length - i}.xml"/>`).join('')}</Relationships>`,
  };
  slides.forEach((s, i) => {
    const tree = [shape([s.title]), s.bullets ? shape(s.bullets) : '', s.table ? table(s.table) : ''].join('');
    files[`ppt/slides/slide${slides.length - i}.xml`] =
      `${xmlHead}<p:sld xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${R}"><p:cSld><p:spTree>${tree}</p:spTree></p:cSld></p:sld>`;
  });
  if (opts.title) files['docProps/core.xml'] = coreXml(opts.title);
  return zip(files);
}

export function makeWorkbook(sheets: Record<string, unknown[][]>, bookType: 'xlsx' | 'xls'): Buffer {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: bookType === 'xls' ? 'biff8' : 'xlsx' }) as Buffer);
}

/**
 * An .xlsx written by hand, part by part (what SheetJS does not write: inline strings, rich text, phonetic runs, a
 * <dimension> narrower than the cells, built-in formats left implicit): one sheet, "One", of `sheetXml` (the
 * children of <worksheet>), with the shared strings (<si> items) and styles (the children of <styleSheet>) given.
 */
export function makeXlsxParts(
  sheetXml: string,
  opts: { sharedStrings?: string; styles?: string; title?: string } = {},
): Buffer {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const rels = [`<Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/>`];
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="${type}.sheet.main+xml"/>`,
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type}.worksheet+xml"/>`,
  ];
  const files: Record<string, string> = {
    'xl/workbook.xml': `${xmlHead}<workbook xmlns="${S}" xmlns:r="${R}"><sheets><sheet name="One" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/worksheets/sheet1.xml': `${xmlHead}<worksheet xmlns="${S}">${sheetXml}</worksheet>`,
    '_rels/.rels': `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  };
  if (opts.sharedStrings !== undefined) {
    rels.push(`<Relationship Id="rId2" Type="${R}/sharedStrings" Target="sharedStrings.xml"/>`);
    overrides.push(`<Override PartName="/xl/sharedStrings.xml" ContentType="${type}.sharedStrings+xml"/>`);
    files['xl/sharedStrings.xml'] = `${xmlHead}<sst xmlns="${S}">${opts.sharedStrings}</sst>`;
  }
  if (opts.styles !== undefined) {
    rels.push(`<Relationship Id="rId3" Type="${R}/styles" Target="styles.xml"/>`);
    overrides.push(`<Override PartName="/xl/styles.xml" ContentType="${type}.styles+xml"/>`);
    files['xl/styles.xml'] = `${xmlHead}<styleSheet xmlns="${S}">${opts.styles}</styleSheet>`;
  }
  if (opts.title) files['docProps/core.xml'] = coreXml(opts.title);
  files['xl/_rels/workbook.xml.rels'] =
    `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`;
  files['[Content_Types].xml'] =
    `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">${overrides.join('')}</Types>`;
  return zip(files);
}

/** A .docx holding a part of `inflated` zero bytes (it compresses about a thousand times). */
export function makeZipBombDocx(inflated: number): Buffer {
  return makeDocx([{ text: 'Looks harmless.' }], { extra: { 'word/media/padding.bin': new Uint8Array(inflated) } });
}

/** Rewrites every declared uncompressed size in a zip (local and central headers) to `size`: a lying archive. */
export function lieAboutSizes(zipBytes: Buffer, size: number): Buffer {
  const out = Buffer.from(zipBytes);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt32LE(size, i + 22);
    else if (sig === 0x02014b50) out.writeUInt32LE(size, i + 24);
  }
  return out;
}
