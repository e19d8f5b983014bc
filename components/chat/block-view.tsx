'use client';

import { memo } from 'react';
import type { Block } from '../../lib/chat/view';
import { AgentSection, HandoffNote } from './agent-section';
import { Markdown } from './markdown';
import { ReasoningBlock } from './reasoning-block';
import { RetrievalCard } from './retrieval-card';
import { ToolCard } from './tool-card';

export interface BlockViewProps {
  block: Block;
  streaming: boolean;
}

/** One block of a run. Memoized on the block object: an unchanged block is skipped while another one streams. */
export const BlockView = memo(function BlockView({ block, streaming }: BlockViewProps) {
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
          {block.run.blocks.map((b) => (
            <BlockView key={b.id} block={b} streaming={block.run.status === 'streaming'} />
          ))}
        </AgentSection>
      );
    case 'handoff':
      return <HandoffNote block={block} />;
  }
});
