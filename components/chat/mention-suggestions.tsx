'use client';
// `@Name` completion in the composer, for a conversation with a saved GroupChat (or Router): while the message ends
// with `@` and the start of a member's name, the matching members are offered; picking one completes the name.
import { useTranslations } from 'next-intl';
import { useAgents } from '../agents/agents-store';
import { suggest, useDraft } from './composer-draft';
import { useChat } from './store';

/** The names a message may mention: the members of the conversation's saved agent. */
function useMemberNames(): string[] {
  const agentId = useChat((s) => (s.activeId ? s.settings?.agentId : s.draftAgent?.id));
  const agents = useAgents((s) => s.agents);
  const agent = agents.find((a) => a.id === agentId);
  if (!agent?.members.length) return [];
  return agent.members.map((id) => agents.find((a) => a.id === id)?.name).filter((n): n is string => Boolean(n));
}

export function MentionSuggestions() {
  const t = useTranslations('composer');
  const text = useDraft((s) => s.text);
  const names = useMemberNames();
  const typed = /(?:^|\s)@([^\s@]*)$/.exec(text);
  if (!typed || !names.length) return null;
  const start = typed[1]!.toLowerCase();
  const matches = names.filter((n) => n.toLowerCase().startsWith(start));
  if (!matches.length) return null;
  return (
    <div role="group" aria-label={t('mentions')} className="mx-auto mb-2 flex max-w-3xl flex-wrap gap-1">
      {matches.map((name) => (
        <button
          key={name}
          type="button"
          onClick={() => suggest(`${text.slice(0, text.length - typed[1]!.length)}${name} `)}
          className="rounded-full border border-neutral-300 px-2 py-0.5 text-sm hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800"
        >
          {t('mention', { name })}
        </button>
      ))}
    </div>
  );
}
