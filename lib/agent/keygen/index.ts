// The keyword strategies by upstream's names (rag_keygen_strategy), and how an agent picks one.
import {
  GenKeyword,
  GenKeywordWithKnowledge,
  SplitQuery,
  SplitQueryThenGenKeyword,
  SplitQueryThenGenKeywordWithKnowledge,
  type KeygenOptions,
  type KeygenStrategy,
} from './strategies';

export {
  GenKeyword,
  GenKeywordWithKnowledge,
  SplitQuery,
  SplitQueryThenGenKeyword,
  SplitQueryThenGenKeywordWithKnowledge,
  KeygenStrategy,
  KEYWORD_STOP,
  SPLIT_QUERY_STOP,
  type KeygenOptions,
} from './strategies';
export { keywordQuery, parseKeywordJson, withoutJsonFence } from './keyword-json';

const STRATEGIES = {
  GenKeyword,
  GenKeywordWithKnowledge,
  SplitQuery,
  SplitQueryThenGenKeyword,
  SplitQueryThenGenKeywordWithKnowledge,
} as const;

export type KeygenStrategyName = keyof typeof STRATEGIES;
export const KEYGEN_STRATEGY_NAMES = Object.keys(STRATEGIES) as KeygenStrategyName[];

/**
 * The strategy a rag_keygen_strategy value names: one of upstream's class names, or 'none' (any case) for no
 * keyword call. Unset: `configured` (RAG_KEYGEN_STRATEGY / QWEN_AGENT_DEFAULT_RAG_KEYGEN_STRATEGY, from the agent's
 * tool settings), else none. Anything else throws
 * naming the setting and the names it takes.
 */
export function keygenStrategyName(value: unknown, configured?: string): KeygenStrategyName | 'none' {
  const fromEnv = value === undefined;
  const raw = fromEnv ? configured : value;
  if (raw === undefined) return 'none';
  const where = fromEnv ? 'RAG_KEYGEN_STRATEGY (or QWEN_AGENT_DEFAULT_RAG_KEYGEN_STRATEGY)' : 'rag_keygen_strategy';
  if (typeof raw === 'string') {
    if (raw.trim().toLowerCase() === 'none') return 'none';
    if ((KEYGEN_STRATEGY_NAMES as string[]).includes(raw.trim())) return raw.trim() as KeygenStrategyName;
  }
  throw new TypeError(
    `${where}: ${JSON.stringify(raw)} is not a keyword strategy. It takes "none" or one of ${KEYGEN_STRATEGY_NAMES.map((n) => `"${n}"`).join(', ')}.`,
  );
}

/** A strategy agent by its name. */
export function keygenAgent(name: KeygenStrategyName, opts: KeygenOptions): KeygenStrategy {
  return new STRATEGIES[name](opts);
}
