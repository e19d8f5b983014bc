// Large documents for the memory tests and bench/parse-memory: the largest CSV and .xlsx the upload limits allow,
// written at test time, and the resident memory of an app's whole process group (its parse workers are threads of
// it) followed while one is uploaded and parsed.
import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { strToU8, zipSync } from 'fflate';

/** A CSV of about `mb` MB: sales rows with dates, numbers, names and quoted notes holding commas. */
export function writeLargeCsv(file: string, mb: number): void {
  const parts: string[] = ['id,date,city,product,quantity,unit_price,total,customer,notes\n'];
  const cities = ['Brest', 'Paris', 'Lyon', 'Marseille', 'Nantes', 'Lille', 'Toulouse', 'Nice', 'Bordeaux'];
  let size = parts[0]!.length;
  for (let i = 0; size < mb * 1024 * 1024; i++) {
    const q = (i * 7) % 50;
    const p = ((i * 37) % 50_000) / 100;
    const line =
      `${i},2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},` +
      `${cities[i % cities.length]},product-${i % 5000},${q},${p},${(q * p).toFixed(2)},customer ${i % 100_000},` +
      `"note, with a comma ${i}"\n`;
    parts.push(line);
    size += line.length;
  }
  writeFileSync(file, parts.join(''));
}

/** An .xlsx of one sheet whose XML is about `mb` MB: numbers, shared strings and dates (a date format). */
export function writeLargeXlsx(file: string, mb: number): void {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  const col = (c: number) => String.fromCharCode(65 + c);
  const rows: string[] = [
    `<row r="1">${[0, 1, 2, 3, 4, 5, 6, 7, 8].map((c) => `<c r="${col(c)}1" t="s"><v>${c}</v></c>`).join('')}</row>`,
  ];
  let size = rows[0]!.length;
  for (let r = 2; size < mb * 1024 * 1024; r++) {
    let row = `<row r="${r}">`;
    for (let c = 0; c < 9; c++) {
      const ref = `${col(c)}${r}`;
      if (c % 4 === 0) row += `<c r="${ref}"><v>${r}</v></c>`;
      else if (c % 4 === 1) row += `<c r="${ref}" t="s"><v>${9 + ((r * c) % 5000)}</v></c>`;
      else if (c % 4 === 2) row += `<c r="${ref}" s="1"><v>${45000 + (r % 1000)}</v></c>`;
      else row += `<c r="${ref}"><v>${((r * 7919) % 100_000) / 100}</v></c>`;
    }
    row += '</row>';
    rows.push(row);
    size += row.length;
  }
  const strings = [
    ...Array.from({ length: 9 }, (_, i) => `heading ${i}`),
    ...Array.from({ length: 5000 }, (_, i) => `product ${i}`),
  ];
  writeFileSync(
    file,
    zipSync({
      '[Content_Types].xml': strToU8(
        `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="${type}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${type}.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="${type}.sharedStrings+xml"/></Types>`,
      ),
      '_rels/.rels': strToU8(
        `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      'xl/workbook.xml': strToU8(
        `${head}<workbook xmlns="${S}" xmlns:r="${R}"><sheets><sheet name="Sales" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${R}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${R}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
      'xl/styles.xml': strToU8(
        `${head}<styleSheet xmlns="${S}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`,
      ),
      'xl/sharedStrings.xml': strToU8(
        `${head}<sst xmlns="${S}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`,
      ),
      'xl/worksheets/sheet1.xml': strToU8(
        `${head}<worksheet xmlns="${S}"><sheetData>${rows.join('')}</sheetData></worksheet>`,
      ),
    }),
  );
}

/** The resident memory of every process in the group `pgid` (the app and whatever it started), in bytes. */
export function groupRss(pgid: number): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** Uploads `file` to the app (POST /api/files) and waits until it is parsed, following the resident memory of the
 *  app's process group meanwhile: its level just before, and how far it rose at most. */
export async function uploadAndParse(appUrl: string, pgid: number, file: string, headers: Record<string, string> = {}) {
  await new Promise((r) => setTimeout(r, 2_000)); // let the app settle (GC, idle workers) before the baseline
  const base = groupRss(pgid);
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, groupRss(pgid))), 20);
  const started = performance.now();
  const res = await fetch(`${appUrl}/api/files?name=${encodeURIComponent(path.basename(file))}`, {
    method: 'POST',
    headers: {
      origin: appUrl,
      'content-type': 'application/octet-stream',
      'content-length': String(statSync(file).size),
    },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const { document } = (await res.json()) as { document: { id: string } };
  let state = 'parsing';
  let detail: { state: string; pages?: number; error?: string } = { state };
  while (state === 'parsing') {
    await new Promise((r) => setTimeout(r, 200));
    detail = (
      (await (await fetch(`${appUrl}/api/files/${document.id}`, { headers })).json()) as { document: typeof detail }
    ).document;
    state = detail.state;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  return { baseMb: base / 2 ** 20, growthMb: (peak - base) / 2 ** 20, ms, detail };
}
