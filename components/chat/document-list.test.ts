import { describe, expect, it } from 'vitest';
import { waitingDocuments } from './document-list';
import type { TurnState } from './store';
import type { UploadItem } from './uploads';

const item = (name: string, over: Partial<UploadItem> = {}): UploadItem => ({
  key: name,
  id: `id-${name}`,
  ref: `files/${name.length.toString(16).padStart(64, '0')}/${name}`,
  name,
  size: 10,
  state: 'ready',
  progress: 1,
  pages: 1,
  ...over,
});

describe('the documents above the composer', () => {
  it('are those waiting for the next message: a sent file leaves for its message, a refused one stays', () => {
    const sent = item('sent.pdf');
    const waiting = item('waiting-longer-name.md');
    const refused = item('broken.pdf', { state: 'error', ref: undefined, error: { message: 'corrupt' } });
    const turn: TurnState = {
      turnId: 't1',
      seq: 0,
      runCount: 1,
      content: [{ text: 'What does it say?' }, { file: sent.ref! }],
    };
    expect(waitingDocuments([sent, waiting, refused], [turn]).map((i) => i.name)).toEqual([
      'waiting-longer-name.md',
      'broken.pdf',
    ]);
    // Before the message went, all three waited.
    expect(waitingDocuments([sent, waiting, refused], [])).toHaveLength(3);
  });
});
