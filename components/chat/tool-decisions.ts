'use client';
import { createContext } from 'react';
import type { ToolDecision } from '../../lib/protocol/events';

/** How a paused tool call's card sends the user's decision; absent where no run of this turn is going (then the card
 *  only shows what was decided). Resolves with the error when the decision was refused.
 *  `childRunId`: a child run's call (its section provides it: two children's call ids may be the same). */
export type DecideTool = (
  functionId: string,
  decision: ToolDecision,
  childRunId?: string,
) => Promise<string | undefined>;

export const ToolDecisions = createContext<DecideTool | undefined>(undefined);
