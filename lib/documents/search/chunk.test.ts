import { describe, expect, it } from 'vitest';
import { countTokens } from '../../llm/tokens';
import type { ParsedDocument } from '../types';
import { chunkDocument, OVERLAP_CHARS } from './chunk';

function doc(pages: string[][]): ParsedDocument {
  return { hash: 'h', name: 'd.txt', kind: 'text', pages: pages.map((paragraphs, i) => ({ page: i + 1, paragraphs })) };
}

/** A paragraph of roughly `words` distinct words, tagged so tests can find it. */
function para(tag: string, words: number): string {
  return `${tag} ` + Array.from({ length: words }, (_, i) => `word${i}`).join(' ') + '.';
}

describe('chunkDocument', () => {
  it('keeps a small document as one chunk that opens with its page marker', () => {
    const chunks = chunkDocument(doc([['Leave policy.', 'Staff get 25 days.']]));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.content).toBe('[page: 1]\nLeave policy.\nStaff get 25 days.');
    expect(chunks[0]!.page).toBe(1);
    expect(chunks[0]!.tokens).toBe(countTokens(chunks[0]!.content));
  });

  it('marks each page where the text changes page, and one chunk spans small pages', () => {
    const [chunk] = chunkDocument(doc([['First page text.'], ['Second page text.']]));
    expect(chunk!.content).toBe('[page: 1]\nFirst page text.\n[page: 2]\nSecond page text.');
    expect(chunk!.page).toBe(1);
    expect(chunk!.lastPage).toBe(2);
  });

  it('never exceeds the token budget, markers included, and loses no paragraph', () => {
    const pages = Array.from({ length: 6 }, (_, p) =>
      Array.from({ length: 12 }, (_, i) => para(`P${p}-${i}`, 20 + i * 3)),
    );
    const chunks = chunkDocument(doc(pages), 500);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(countTokens(c.content)).toBeLessThanOrEqual(500);
      expect(c.content.startsWith(`[page: ${c.page}]\n`)).toBe(true);
    }
    const all = chunks.map((c) => c.content).join('\n');
    for (const page of pages) for (const p of page) expect(all).toContain(p);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('starts the next chunk with a short overlap from the end of the previous one on the same page', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Short fact number ${i} about the handbook.`);
    const chunks = chunkDocument(doc([paragraphs]), 120);
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1]!.content.split('\n');
      const body = chunks[i]!.content.split('\n');
      expect(body[0]).toBe('[page: 1]');
      // The lines after the marker repeat the previous chunk's last paragraphs, at most OVERLAP_CHARS of them.
      const overlap = body.slice(1).filter((l) => previous.includes(l));
      expect(overlap.length).toBeGreaterThan(0);
      expect(overlap).toEqual(previous.slice(-overlap.length));
      expect(overlap.join('').length).toBeLessThanOrEqual(OVERLAP_CHARS);
    }
  });

  it('does not carry an overlap across a page change', () => {
    const page1 = Array.from({ length: 12 }, (_, i) => para(`A${i}`, 30));
    const page2 = Array.from({ length: 12 }, (_, i) => para(`B${i}`, 30));
    const chunks = chunkDocument(doc([page1, page2]), 200);
    const firstOnPage2 = chunks.find((c) => c.content.includes('B0 '))!;
    // The overlap may only come from page 1 and then carries page 1's marker; text never jumps pages unmarked.
    const lines = firstOnPage2.content.split('\n');
    const b0 = lines.findIndex((l) => l.startsWith('B0 '));
    expect(lines[b0 - 1]).toBe('[page: 2]');
  });

  it('splits an over-long paragraph into sentences, and an over-long sentence by tokens', () => {
    const sentences = Array.from({ length: 60 }, (_, i) => `Sentence ${i} says something about annual leave`).join(
      '. ',
    );
    const giant = 'x'.repeat(6000);
    const chunks = chunkDocument(doc([[sentences, giant]]), 100);
    for (const c of chunks) expect(countTokens(c.content)).toBeLessThanOrEqual(100);
    const text = chunks.map((c) => c.content).join('');
    expect(text).toContain('Sentence 59 says something about annual leave');
    expect(text.replace(/[^x]/g, '').length).toBeGreaterThanOrEqual(6000);
  });

  it('chunks Chinese text within the budget', () => {
    const zh = Array.from({ length: 30 }, (_, i) => `第${i}条：员工每年享有带薪年假，年假天数根据工龄确定。`);
    const chunks = chunkDocument(doc([zh]), 100);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(countTokens(c.content)).toBeLessThanOrEqual(100);
  });

  it('gives an empty document no chunks', () => {
    expect(chunkDocument(doc([['', '  ']]))).toEqual([]);
  });
});
