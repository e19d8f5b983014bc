import { describe, expect, it } from 'vitest';
import type { AgentEvent, RetrievalCandidate } from '../../lib/protocol/events';
import type { AgentKind, ReactPart } from '../../lib/protocol/enums';
import { foldRun, usedPassages, type RetrievalBlock, type ToolBlock } from '../../lib/chat/view';
import { RetrievalCard, RetrievalDetails } from './retrieval-card';
import { RunView } from './run-view';
import { ToolCard } from './tool-card';
import { buttons, elementById, render, textOf } from './test-html';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const candidate = (over: Partial<RetrievalCandidate>): RetrievalCandidate => ({
  chunkId: 'c0',
  fileId: 'h',
  fileName: 'handbook.md',
  page: 1,
  score: 0,
  tokens: 50,
  text: '[page: 1]\nIntro.',
  used: true,
  ...over,
});

function start(kind: AgentKind): AgentEvent {
  return {
    type: 'run-start',
    runId: 'r',
    iteration: 0,
    t: 0,
    agent: 'a',
    kind,
    model: 'm',
    lang: 'en',
    maxLlmCalls: 20,
    tools: [],
  };
}

const retrieval: AgentEvent = {
  type: 'retrieval',
  runId: 'r',
  iteration: 0,
  t: 5,
  by: 'assistant',
  query: 'How long is parental leave?',
  terms: ['long', 'parent', 'leav'],
  mode: 'ranked',
  candidates: [
    candidate({ chunkId: 'c0', pinned: true }),
    candidate({ chunkId: 'c7', page: 3, score: 4.217, text: '[page: 3]\nParental leave: sixteen weeks.' }),
    candidate({ chunkId: 'c2', page: 2, score: 0.5, used: false, text: '[page: 2]\nParking.' }),
  ],
  budgetTokens: 300,
  usedTokens: 100,
  durationMs: 3.2,
};

const answer: AgentEvent[] = [
  { type: 'llm-start', runId: 'r', iteration: 1, t: 6, format: 'native' },
  { type: 'text-delta', runId: 'r', iteration: 1, t: 7, text: 'Sixteen weeks.' },
  { type: 'llm-end', runId: 'r', iteration: 1, t: 8, finishReason: 'stop', durationMs: 2 },
  {
    type: 'run-end',
    runId: 'r',
    iteration: 0,
    t: 9,
    reason: 'answered',
    llmCalls: 1,
    toolCalls: 0,
    usage,
    durationMs: 9,
  },
];

describe('retrieval in the run view', () => {
  it('folds the retrieval event into a block before the answer, and lists the used passages once', () => {
    const view = foldRun('r', [start('assistant'), retrieval, ...answer]);
    expect(view.blocks.map((b) => b.kind)).toEqual(['retrieval', 'text']);
    expect(usedPassages(view).map((c) => c.chunkId)).toEqual(['c0', 'c7']);
  });

  it('shows a folded Retrieval card with the query, then the answer and its sources by document and page', () => {
    const html = render(<RunView run={foldRun('r', [start('assistant'), retrieval, ...answer])} />);
    const [card, ...sources] = buttons(html);
    expect(card!.name).toContain('Retrieval');
    expect(card!.name).toContain('“How long is parental leave?” · 2 of 3 passages used from 1 file');
    expect(card!.attrs['aria-expanded']).toBe('false');
    expect(elementById(html, card!.attrs['aria-controls']!)?.attrs.hidden).toBe('');
    // The passage the answer drew on; the introduction went into the prompt too, but the answer says nothing of it.
    expect(sources.map((b) => b.name)).toEqual(['handbook.md, page 3', 'Open']);
    // Each source opens its document at the cited page.
    expect(sources.filter((b) => b.name === 'Open').map((b) => b.attrs['aria-label'])).toEqual([
      'Open handbook.md at page 3',
    ]);
    // Passages of one page make one source.
    const twoOnPage1: AgentEvent = {
      ...retrieval,
      candidates: [
        candidate({ chunkId: 'a', text: '[page: 1]\nSixteen weeks of leave.' }),
        candidate({ chunkId: 'b', text: 'Leave: sixteen weeks.' }),
      ],
    } as AgentEvent;
    const grouped = render(<RunView run={foldRun('r', [start('assistant'), twoOnPage1, ...answer])} />);
    expect(
      buttons(grouped)
        .slice(1)
        .map((b) => b.name),
    ).toEqual(['handbook.md, page 1 · 2 passages', 'Open']);
    for (const s of sources.filter((b) => b.name !== 'Open')) expect(s.attrs['aria-expanded']).toBe('false');
    expect(html).toContain('aria-label="Sources"');
    expect(textOf(html).indexOf('Sixteen weeks.')).toBeLessThan(textOf(html).indexOf('Sources'));
  });

  it('cites the page a passage spanning pages holds, and only the documents the answer drew on', () => {
    // Everything fitted the budget: a six-page report went in as one passage, with two other documents.
    const report = [1, 2, 3, 4, 5, 6]
      .map((i) => `[page: ${i}]\nChapter ${i}\nThe project codename for chapter ${i} is falcon-${i}.`)
      .join('\n');
    const everything: AgentEvent = {
      ...retrieval,
      mode: 'all',
      candidates: [
        candidate({ chunkId: 'r0', fileId: 'r', fileName: 'report.pdf', lastPage: 6, text: report }),
        candidate({
          chunkId: 'm0',
          fileId: 'm',
          fileName: 'memo.docx',
          text: '[page: 1]\nThe office moves to Building 7.',
        }),
        candidate({
          chunkId: 'n0',
          fileId: 'n',
          fileName: 'notes.md',
          text: '[page: 1]\nThe mascot is a purple otter.',
        }),
      ],
    } as AgentEvent;
    const cites =
      'The codename for chapter 3 is falcon-3 (report.pdf, page 3). The office moves to Building 7 (memo.docx).';
    const events = [start('fncall'), everything, ...answer].map((e) =>
      e.type === 'text-delta' ? { ...e, text: cites } : e,
    );
    const html = render(<RunView run={foldRun('r', events)} />);
    const [card, ...sources] = buttons(html);
    expect(sources.map((b) => b.name)).toEqual(['report.pdf, page 3', 'Open', 'memo.docx, page 1', 'Open']);
    expect(sources[1]!.attrs['aria-label']).toBe('Open report.pdf at page 3');
    // The card says which pages the passage holds.
    const open = textOf(render(<RetrievalCard block={foldRun('r', events).blocks[0] as RetrievalBlock} defaultOpen />));
    expect(open).toContain('report.pdf, pages 1–6');
    expect(card!.name).toContain('Retrieval');
  });

  it('shows no sources when nothing from the documents was used', () => {
    const unused: AgentEvent = { ...retrieval, candidates: [candidate({ used: false })] } as AgentEvent;
    const html = render(<RunView run={foldRun('r', [start('assistant'), unused, ...answer])} />);
    expect(html).not.toContain('Sources');
  });

  it('shows what a search asked and which passages went in, without BM25 scores or stemmed search terms', () => {
    const negative: AgentEvent = {
      ...retrieval,
      candidates: [candidate({ chunkId: 'c0', score: -0.271 }), candidate({ chunkId: 'c1', score: 1.5 })],
    } as AgentEvent;
    const [block] = foldRun('r', [start('assistant'), negative]).blocks;
    const text = textOf(render(<RetrievalDetails block={block as Extract<typeof block, { kind: 'retrieval' }>} />));
    expect(text).toContain('How long is parental leave?');
    expect(text).toContain('in the prompt');
    expect(text).not.toMatch(/score|-0[.,]271|−0[.,]271|1[.,]500/i);
    expect(text).not.toMatch(/\bleav\b|Search terms/);
  });

  it('shows the retrieval tool’s search once, on its tool card (no second “Retrieval” card)', () => {
    const call = { functionId: '1', name: 'retrieval', arguments: '{"query": "leave"}' };
    const view = foldRun('r', [
      start('fncall'),
      { type: 'llm-start', runId: 'r', iteration: 1, t: 1, format: 'native' },
      { type: 'tool-call', runId: 'r', iteration: 1, t: 2, ...call },
      { ...retrieval, by: 'tool', functionId: '1', iteration: 1, t: 3 } as AgentEvent,
      { type: 'tool-result', runId: 'r', iteration: 1, t: 4, ...call, ok: true, content: 'found', durationMs: 1 },
      ...answer.map((e) => (e.type === 'run-end' ? e : { ...e, iteration: 2 })),
    ]);
    expect(view.blocks.map((b) => b.kind)).toEqual(['tool', 'text']);
    const html = render(<RunView run={view} />);
    expect(buttons(html).filter((b) => /retrieval/i.test(b.name))).toHaveLength(1);
    expect(usedPassages(view).map((c) => c.chunkId)).toEqual(['c0', 'c7']);
    const open = textOf(render(<ToolCard block={view.blocks[0] as ToolBlock} defaultOpen />));
    expect(open).toContain('in the prompt');
    expect(open).toContain('Parental leave: sixteen weeks.');
  });

  it('keeps a retrieval tool step on its tool card in a ReAct run', () => {
    const piece = (iteration: number, t: number, part: ReactPart, text: string): AgentEvent => ({
      type: 'text-delta',
      runId: 'r',
      iteration,
      t,
      text,
      part,
    });
    const call = { functionId: '1', name: 'retrieval', arguments: '{"query": "leave", "files": []}' };
    const events: AgentEvent[] = [
      start('react'),
      { type: 'llm-start', runId: 'r', iteration: 1, t: 1, format: 'react' },
      piece(1, 2, 'markup', 'Thought: '),
      piece(1, 2, 'thought', 'search'),
      piece(1, 2, 'markup', '\nAction: '),
      piece(1, 2, 'action', 'retrieval'),
      piece(1, 2, 'markup', '\nAction Input: '),
      piece(1, 2, 'action-input', call.arguments),
      { type: 'llm-end', runId: 'r', iteration: 1, t: 3, finishReason: 'stop', durationMs: 1 },
      { type: 'tool-call', runId: 'r', iteration: 1, t: 3, ...call },
      { ...retrieval, by: 'tool', functionId: '1', iteration: 1, t: 4 } as AgentEvent,
      { type: 'tool-result', runId: 'r', iteration: 1, t: 4, ...call, ok: true, content: 'found', durationMs: 1 },
      piece(1, 5, 'markup', '\nObservation: '),
      piece(1, 5, 'observation', 'found'),
      piece(1, 5, 'markup', '\nThought: '),
      piece(2, 6, 'thought', 'done'),
      piece(2, 6, 'markup', '\nFinal Answer: '),
      piece(2, 6, 'answer', '16 weeks'),
    ];
    const view = foldRun('r', events);
    expect(view.blocks.map((b) => b.kind)).toEqual(['reasoning', 'tool', 'reasoning', 'text']);
    expect((view.blocks[1] as ToolBlock).retrieval?.query).toBe('How long is parental leave?');
  });

  it("shows a VirtualMemoryAgent's recall as turns of the conversation, never as sources to cite", () => {
    const recall: AgentEvent = {
      ...retrieval,
      by: 'memory',
      query: 'What is my locker code?',
      candidates: [
        candidate({
          chunkId: 'm9',
          fileName: 'conversation',
          page: 9,
          text: '[turn 9]\nuser: my locker code is 4711.',
        }),
        candidate({ chunkId: 'm2', fileName: 'conversation', page: 2, used: false, text: '[turn 2]\nuser: chess' }),
      ],
    } as AgentEvent;
    const view = foldRun('r', [start('virtualmemory'), recall, ...answer]);
    expect(usedPassages(view)).toEqual([]);
    const html = render(<RunView run={view} />);
    const [card, ...rest] = buttons(html);
    expect(card!.name).toContain('Recalled from earlier turns');
    expect(card!.name).toContain('“What is my locker code?” · 1 of 2 passages of the earlier turns used');
    expect(rest).toEqual([]);
    expect(html).not.toContain('Sources');
    const open = render(<RetrievalCard block={view.blocks[0] as RetrievalBlock} defaultOpen />);
    expect(textOf(open)).toContain('turn 9');
    expect(textOf(open)).not.toContain('conversation, page 9');
  });
});
