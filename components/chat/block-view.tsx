'use client';

import { memo, useContext } from 'react';
import type { Block } from '../../lib/chat/view';
import { AgentSection, HandoffNote } from './agent-section';
import { Markdown } from './markdown';
import { ReasoningBlock } from './reasoning-block';
import { RetrievalCard } from './retrieval-card';
import { ToolCard } from './tool-card';
import { ToolDecisions } from './tool-decisions';

export interface BlockViewProps {
  block: Block;
  streaming: boolean;
}

/** One block of a run. Memoized on the block object: an unchanged block is skipped while another one streams. */
export const BlockView = memo(function BlockView({ block, streaming }: BlockViewProps) {
  // A child run's paused calls are decided under its own run id.
  const decide = useContext(ToolDecisions);
  switch (block.kind) {
    case 'reasoning':
      return <ReasoningBlock block={block} streaming={streaming} />;
    case 'tool':
      return <ToolCard block={block} />;
    case 'text':
      return <Markdown text={block.text} />;
    case 'retrieval':
      return <RetrievalCard block={block} />;
    case 'agent':
      return (
        <AgentSection block={block}>
          <ToolDecisions.Provider value={decide && ((id, decision) => decide(id, decision, block.runId))}>
            {block.run.blocks.map((b) => (
              <BlockView key={b.id} block={b} streaming={block.run.status === 'streaming'} />
            ))}
          </ToolDecisions.Provider>
        </AgentSection>
      );
    case 'handoff':
      return <HandoffNote block={block} />;
  }
});
