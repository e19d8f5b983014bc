'use client';
// The empty page of a new conversation: a few prompts to start from, what the agent can do with the tools that are
// on, and where files go. An agent may bring its own prompts (`suggestions`, shown as its author wrote them);
// otherwise they are picked from the catalog by the tools that are on.
import { useTranslations } from 'next-intl';
import type en from '../../lib/i18n/messages/en.json';
import { suggest } from './composer-draft';

type PromptKey = keyof (typeof en)['welcome']['prompts'];

/** The catalog prompt each tool makes worth suggesting, in the order they are offered. */
const PROMPT_OF_TOOL: Record<string, PromptKey> = {
  retrieval: 'retrieval',
  doc_parser: 'retrieval',
  code_interpreter: 'code_interpreter',
  calculator: 'calculator',
  current_time: 'current_time',
  web_search: 'web_search',
  web_extractor: 'web_extractor',
  storage: 'storage',
};
const GENERAL_PROMPTS: PromptKey[] = ['explain', 'write'];
const MAX_SUGGESTIONS = 4;
const MIN_SUGGESTIONS = 3;

/** Up to four catalog prompts for these tools (the Assistant always reads documents), topped up with general ones. */
export function promptKeys(tools: readonly string[], agent: string): PromptKey[] {
  const keys: PromptKey[] = [];
  const add = (key: PromptKey | undefined) => key && !keys.includes(key) && keys.push(key);
  if (agent === 'assistant') add('retrieval');
  for (const tool of tools) add(PROMPT_OF_TOOL[tool]);
  for (const key of GENERAL_PROMPTS) if (keys.length < MIN_SUGGESTIONS) add(key);
  return keys.slice(0, MAX_SUGGESTIONS);
}

export interface WelcomeProps {
  /** The names of the tools that are on (the conversation's settings, or a saved agent's own), and the agent kind;
   *  no tools: not known yet (a saved agent's, while the list of agents loads), nothing said of them. */
  tools: readonly string[] | undefined;
  agent: string;
  /** What each tool says of itself, for a tool the catalog does not describe. */
  descriptions?: readonly { name: string; description: string }[];
  /** An agent's own prompts, shown instead of the catalog's. */
  suggestions?: readonly string[];
  /** The tools are an agent's own, not Settings': a saved agent's, which its editor changes (`saved`), or one from
   *  code's, which only its plugin file changes (`from-code`: duplicating it makes one that can be edited). */
  savedAgent?: 'saved' | 'from-code';
}

export function Welcome({ tools, agent, descriptions = [], suggestions, savedAgent }: WelcomeProps) {
  const t = useTranslations('welcome');
  const tTools = useTranslations('tools');
  const prompts = suggestions?.length ? suggestions : promptKeys(tools ?? [], agent).map((key) => t(`prompts.${key}`));
  const ability = (name: string) => {
    const key = `abilities.${name}` as Parameters<typeof tTools>[0];
    if (tTools.has(key)) return tTools(key);
    return descriptions.find((tool) => tool.name === name)?.description;
  };

  return (
    <section
      aria-labelledby="welcome-title"
      className="mx-auto flex max-w-3xl flex-col gap-5 p-6 text-neutral-700 md:p-10 dark:text-neutral-300"
    >
      <h2 id="welcome-title" className="text-center text-2xl font-semibold text-neutral-900 dark:text-neutral-100">
        {t('title')}
      </h2>
      <div>
        <h3 className="mb-2 text-sm font-semibold text-neutral-900 dark:text-neutral-100">{t('suggestions')}</h3>
        <ul className="grid gap-2 sm:grid-cols-2">
          {prompts.map((prompt) => (
            <li key={prompt}>
              <button
                type="button"
                onClick={() => suggest(prompt)}
                className="h-full w-full rounded-xl border border-neutral-300 px-3 py-2 text-left text-sm text-neutral-800 hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-900"
              >
                {prompt}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="text-sm">
        {!tools ? null : tools.length ? (
          <>
            <h3 className="mb-1 font-semibold text-neutral-900 dark:text-neutral-100">{t('tools')}</h3>
            <ul className="list-disc space-y-0.5 pl-5">
              {tools.map((name) => {
                const can = ability(name);
                const code = () => <code className="text-neutral-900 dark:text-neutral-100">{name}</code>;
                return <li key={name}>{can ? t.rich('toolAbility', { name, ability: can, code }) : code()}</li>;
              })}
            </ul>
          </>
        ) : (
          <p>{t(savedAgent === 'from-code' ? 'noCodeAgentTools' : savedAgent ? 'noAgentTools' : 'noTools')}</p>
        )}
      </div>
      <p className="text-sm">{t('attach')}</p>
    </section>
  );
}
