// Tables become GitHub markdown tables, one paragraph per block of rows, so a long sheet is searched (and cited) in
// pieces that each repeat the header row.

export const TABLE_ROWS_PER_PARAGRAPH = 50;

function cell(value: string): string {
  return value
    .replace(/\r?\n|\r/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** Drops empty trailing rows and columns; pads every row to the widest. */
export function tidyRows(rows: string[][]): string[][] {
  const kept = rows.map((r) => r.map((c) => c ?? ''));
  while (kept.length && kept[kept.length - 1]!.every((c) => !c.trim())) kept.pop();
  let width = 0;
  for (const r of kept) {
    let w = r.length;
    while (w > 0 && !r[w - 1]!.trim()) w--;
    width = Math.max(width, w);
  }
  return kept.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
}

/** The table as markdown paragraphs; the first row is the header. Empty tables give no paragraphs. */
export function markdownTables(rows: string[][], rowsPerParagraph = TABLE_ROWS_PER_PARAGRAPH): string[] {
  const tidy = tidyRows(rows);
  if (!tidy.length || !tidy[0]!.length) return [];
  const line = (r: string[]) => `| ${r.map(cell).join(' | ')} |`;
  const header = line(tidy[0]!);
  const rule = `| ${tidy[0]!.map(() => '---').join(' | ')} |`;
  const body = tidy.slice(1);
  if (!body.length) return [`${header}\n${rule}`];
  const out: string[] = [];
  for (let i = 0; i < body.length; i += rowsPerParagraph) {
    out.push([header, rule, ...body.slice(i, i + rowsPerParagraph).map(line)].join('\n'));
  }
  return out;
}
