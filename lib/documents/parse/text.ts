// Markdown and plain text: paragraphs are separated by blank lines (a single document page).
import type { DocumentPage } from '../types';

export function parseText(text: string): DocumentPage[] {
  const paragraphs = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/[ \t]+$/gm, '').trim())
    .filter(Boolean);
  return [{ page: 1, paragraphs }];
}

/** A Markdown document's title: its first level-1 heading. */
export function markdownTitle(text: string): string | undefined {
  return /^#\s+(.+?)\s*#*\s*$/m.exec(text)?.[1];
}
