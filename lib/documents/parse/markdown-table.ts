// Tables become GitHub markdown tables, one paragraph per block of rows, so a long sheet is searched (and cited) in
// pieces that each repeat the header row. Rows can come one at a time (a CSV or a sheet read as a stream): a first
// pass measures the table (TableShape), a second writes it (MarkdownTable), and no pass holds every row.

export const TABLE_ROWS_PER_PARAGRAPH = 50;

function cell(value: string | undefined): string {
  return (value ?? '')
    .replace(/\r?\n|\r/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** What a table keeps of its rows: every row up to the last one that is not blank, each as wide as the widest one
 *  without its trailing blank cells. */
export class TableShape {
  width = 0;
  rows = 0;
  private seen = 0;

  add(row: readonly (string | undefined)[]): void {
    this.seen++;
    let w = row.length;
    while (w > 0 && !row[w - 1]?.trim()) w--;
    if (w === 0) return;
    this.rows = this.seen;
    if (w > this.width) this.width = w;
  }
}

/** Writes the rows of a table of `shape` as markdown paragraphs into `out`; the first row is the header. */
export class MarkdownTable {
  private header?: string;
  private rule = '';
  private lines: string[] = [];
  private added = 0;

  constructor(
    private readonly shape: Pick<TableShape, 'width' | 'rows'>,
    private readonly out: { push(paragraph: string): unknown },
    private readonly rowsPerParagraph = TABLE_ROWS_PER_PARAGRAPH,
  ) {}

  add(row: readonly (string | undefined)[]): void {
    const { width, rows } = this.shape;
    if (!width || this.added >= rows) return;
    this.added++;
    const cells: string[] = new Array(width);
    for (let i = 0; i < width; i++) cells[i] = cell(row[i]);
    const line = `| ${cells.join(' | ')} |`;
    if (this.header === undefined) {
      this.header = line;
      this.rule = `| ${new Array<string>(width).fill('---').join(' | ')} |`;
      return;
    }
    this.lines.push(line);
    if (this.lines.length === this.rowsPerParagraph) this.flush();
  }

  /** The last rows; a table of its header alone is one paragraph. */
  end(): void {
    if (this.header === undefined) return;
    if (this.added === 1) this.out.push(`${this.header}\n${this.rule}`);
    else if (this.lines.length) this.flush();
  }

  private flush(): void {
    this.out.push(`${this.header}\n${this.rule}\n${this.lines.join('\n')}`);
    this.lines = [];
  }
}

/** The table as markdown paragraphs; the first row is the header. Empty tables give no paragraphs. */
export function markdownTables(
  rows: readonly (readonly (string | undefined)[])[],
  rowsPerParagraph = TABLE_ROWS_PER_PARAGRAPH,
): string[] {
  const shape = new TableShape();
  for (const row of rows) shape.add(row);
  const out: string[] = [];
  const table = new MarkdownTable(shape, out, rowsPerParagraph);
  for (const row of rows) table.add(row);
  table.end();
  return out;
}
