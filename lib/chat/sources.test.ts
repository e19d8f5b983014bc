import { describe, expect, it } from 'vitest';
import type { RetrievalCandidate } from '../protocol/events';
import { citedPages, pagePassages } from './sources';

const passage = (fileName: string, text: string, over: Partial<RetrievalCandidate> = {}): RetrievalCandidate => ({
  chunkId: `${fileName}:0`,
  fileId: fileName,
  fileName,
  page: 1,
  score: 0,
  tokens: 100,
  text,
  used: true,
  ...over,
});

/** A six-page report that fits the budget whole: one passage spanning its pages, as retrieval hands it over. */
const REPORT = passage(
  'report.pdf',
  [1, 2, 3, 4, 5, 6]
    .map(
      (i) =>
        `[page: ${i}]\nChapter ${i}\nThis is chapter ${i} of the annual report. Revenue in region ${i} grew by ${i * 3} percent.\n` +
        `The project codename for chapter ${i} is falcon-${i}. The lighthouse keeper counted ${i * 111} ships.`,
    )
    .join('\n'),
  { lastPage: 6 },
);
const OTHERS = [
  passage('memo.docx', '[page: 1]\n# Staff memo\nThe office moves to Building 7 on March 3rd.\n| Team | Floor |'),
  passage(
    'notes.md',
    '[page: 1]\n# Meeting notes\nWe decided the mascot is a purple otter.\nNext meeting is on Friday.',
  ),
  passage('page.html', '[page: 1]\n# Pricing\nThe Pro plan costs 42 euros per month.'),
  passage('sales.csv', '[page: 1]\n| month | revenue | cost |\n| Jan | 1000 | 700 |\n| Feb | 1150 | 750 |'),
  passage('budget.xlsx', '[page: 1]\n| item | cost |\n| rent | 1000 |\n| power | 250 |'),
];
const ALL = [REPORT, ...OTHERS].flatMap(pagePassages);
const labels = (list: RetrievalCandidate[]) => list.map((p) => `${p.fileName} p${p.page}`);

describe('the Sources of an answer', () => {
  it('cuts a passage spanning pages into one per page, each with its own text', () => {
    const pages = pagePassages(REPORT);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages[2]!.text).toMatch(/^\[page: 3\]\nChapter 3\n/);
    expect(pages[2]!.text).not.toContain('falcon-4');
    expect(new Set(pages.map((p) => p.chunkId)).size).toBe(6);
    expect(pages.every((p) => p.lastPage === undefined)).toBe(true);
  });

  it('lists the page and document an answer cites, not every document that went into the prompt', () => {
    const answer =
      'The codename for chapter 3 is **falcon-3** (report.pdf, page 3). The office moves to Building 7 (memo.docx).';
    expect(labels(citedPages(ALL, answer))).toEqual(['report.pdf p3', 'memo.docx p1']);
  });

  it('finds the same pages from what the answer says when it names no document', () => {
    const answer = 'The codename for chapter 3 is falcon-3, and the office moves to Building 7.';
    expect(labels(citedPages(ALL, answer))).toEqual(['report.pdf p3', 'memo.docx p1']);
    expect(labels(citedPages(ALL, 'The mascot is a purple otter.'))).toEqual(['notes.md p1']);
  });

  it('finds the page of a Chinese document, and a word in another form ("ships", "ship")', () => {
    const zh = pagePassages(
      passage(
        '年报.pdf',
        [1, 2, 3].map((i) => `[page: ${i}]\n第${i}章的项目代号是猎鹰${i}号。灯塔看守人数了${i * 111}艘船。`).join('\n'),
        { lastPage: 3 },
      ),
    );
    expect(labels(citedPages(zh, '灯塔看守人数了222艘船。'))).toEqual(['年报.pdf p2']);
    expect(labels(citedPages(ALL, 'The keeper counted 444 ship.'))).toEqual(['report.pdf p4']);
  });

  it('takes page lists and ranges, before or after the name, in English and Chinese', () => {
    expect(labels(citedPages(ALL, 'See report.pdf, pages 2–4.'))).toEqual([
      'report.pdf p2',
      'report.pdf p3',
      'report.pdf p4',
    ]);
    expect(labels(citedPages(ALL, 'As page 5 of report.pdf says, revenue grew.'))).toEqual(['report.pdf p5']);
    expect(labels(citedPages(ALL, '第三章的代号是 falcon-3（report.pdf 第 3 页）。'))).toEqual(['report.pdf p3']);
    expect(labels(citedPages(ALL, 'report.pdf 第 2、6 页都提到了收入。'))).toEqual(['report.pdf p2', 'report.pdf p6']);
  });

  it('lists a document named without a page by the pages the answer drew on, else all of it', () => {
    expect(labels(citedPages(ALL, 'In report.pdf the lighthouse keeper counted 555 ships.'))).toEqual([
      'report.pdf p5',
    ]);
    expect(labels(citedPages(ALL, 'I found nothing about that in memo.docx.'))).toEqual(['memo.docx p1']);
  });

  it('lists nothing for an answer that names no document and says nothing the passages say', () => {
    expect(citedPages(ALL, 'I could not find that.')).toEqual([]);
  });

  it('keeps passages of one page together', () => {
    const two = [
      passage('handbook.md', '[page: 1]\nParental leave is sixteen weeks.', { chunkId: 'a' }),
      passage('handbook.md', '[page: 1]\nSixteen weeks of paid parental leave.', { chunkId: 'b' }),
      passage('handbook.md', '[page: 2]\nParking is in the yard.', { chunkId: 'c', page: 2 }),
    ];
    expect(citedPages(two, 'Sixteen weeks.').map((p) => p.chunkId)).toEqual(['a', 'b']);
  });
});
