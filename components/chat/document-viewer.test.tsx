import { describe, expect, it } from 'vitest';
import { isCited } from './document-viewer';

describe('the cited paragraphs of a page', () => {
  const passage = '[page: 3]\nParental leave: sixteen weeks,\npaid in full.\n\nAdoption counts the same.';
  it('are those a cited passage holds (whitespace aside), or that hold a passage', () => {
    expect(isCited('Parental leave: sixteen weeks, paid in full.', [passage])).toBe(true);
    expect(isCited('Adoption counts the same.', [passage])).toBe(true);
    expect(
      isCited('Intro. Parental leave: sixteen weeks, paid in full. More text after it.', [
        'Parental leave: sixteen weeks, paid in full.',
      ]),
    ).toBe(true);
  });
  it('leave the rest of the page, and empty paragraphs, unmarked', () => {
    expect(isCited('Parking is free on Sundays.', [passage])).toBe(false);
    expect(isCited('  ', [passage])).toBe(false);
    expect(isCited('Parental leave', ['Parental'])).toBe(false);
  });
});
