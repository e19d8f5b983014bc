// The rule's outcomes, one per reason (the service's use of it: test/integration/documents-just-work.test.ts).
import { describe, expect, it } from 'vitest';
import { documentToolsRule } from './document-tools';

const base = { agent: 'fncall' as const, tools: ['calculator'] };

describe('documentToolsRule', () => {
  it('adds retrieval and doc_parser, once, when the conversation has documents', () => {
    expect(documentToolsRule(base, true)).toEqual({
      tools: ['calculator', 'retrieval', 'doc_parser'],
      reason: 'documents',
    });
    expect(documentToolsRule({ ...base, agent: 'react', tools: ['retrieval'] }, true).tools).toEqual([
      'retrieval',
      'doc_parser',
    ]);
  });

  it('adds nothing without documents, when turned off, or for the Assistant', () => {
    expect(documentToolsRule(base, false)).toEqual({ tools: ['calculator'], reason: 'no-documents' });
    expect(documentToolsRule({ ...base, documentTools: 'off' }, true)).toEqual({
      tools: ['calculator'],
      reason: 'turned-off',
    });
    expect(documentToolsRule({ ...base, agent: 'assistant' }, true)).toEqual({
      tools: ['calculator'],
      reason: 'assistant',
    });
  });
});
