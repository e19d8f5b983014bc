'use client';
// "New group" on the Agents list: the user describes a group in words and talks it over with GroupChatCreator; each
// answer brings the group as drafted so far, shown as a form to review and change; saved, each member is an agent of
// the user's and the group a GroupChat holding them (lib/chat/group-drafts.ts). The creator's words are shown as
// text: model output is never markup here.
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { draftAgentGroup, saveAgentGroup } from '@/app/actions/agents';
import type { RoleConfig } from '@/lib/agent/group-chat-creator';
import { SPEAKER_SELECTIONS, type SpeakerSelection } from '@/lib/protocol/enums';
import { useModalDialog } from '../modal-dialog';
import { useAgents } from './agents-store';

type DraftMessage = { role: 'user' | 'assistant'; content: string; name?: string };

interface Review {
  name: string;
  background: string;
  members: RoleConfig[];
  selection: SpeakerSelection;
}

const EMPTY: Review = { name: '', background: '', members: [], selection: 'round_robin' };
const FIELD =
  'w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900';
const BUTTON =
  'rounded border border-neutral-300 px-3 py-1 text-sm hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-50 dark:border-neutral-700 dark:hover:bg-neutral-800';
const PRIMARY =
  'rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 disabled:bg-neutral-400';

export function GroupCreator({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useTranslations('agents.group');
  const tAgents = useTranslations('agents');
  const dialog = useModalDialog(open);
  const [messages, setMessages] = useState<DraftMessage[]>([]);
  const [text, setText] = useState('');
  const [review, setReview] = useState<Review>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  const close = () => {
    setMessages([]);
    setText('');
    setReview(EMPTY);
    setProblem(undefined);
    onClose();
  };

  const ask = async () => {
    const said = text.trim();
    if (!said || busy) return;
    const asked: DraftMessage[] = [...messages, { role: 'user', content: said }];
    setBusy(true);
    setProblem(undefined);
    const result = await draftAgentGroup({ messages: asked });
    setBusy(false);
    if (!result.ok) return setProblem(result.error);
    setText('');
    const answered = result.value.messages.map((m) => ({
      role: m.role === 'user' ? ('user' as const) : ('assistant' as const),
      content: typeof m.content === 'string' ? m.content : '',
      ...(m.name ? { name: m.name } : {}),
    }));
    setMessages([...asked, ...answered]);
    // The draft as the whole conversation has it replaces the form's background and members; the name stays.
    setReview((r) => ({ ...r, background: result.value.draft.background, members: result.value.draft.members }));
  };

  const save = async () => {
    setBusy(true);
    setProblem(undefined);
    const result = await saveAgentGroup(review);
    setBusy(false);
    if (!result.ok) return setProblem(result.error);
    await useAgents.getState().refresh();
    close();
  };

  const patchMember = (i: number, patch: Partial<RoleConfig>) =>
    setReview((r) => ({ ...r, members: r.members.map((m, j) => (j === i ? { ...m, ...patch } : m)) }));

  // What the user said and what the creator answered (its background and configurations are in the form below).
  const talk = messages.filter((m) => m.role === 'user' || !m.name || m.name === 'GroupChatCreator');

  return (
    <dialog
      ref={dialog}
      aria-labelledby="group-creator-title"
      onClose={() => open && close()}
      className="m-auto max-h-[90dvh] w-[min(40rem,95vw)] overflow-y-auto rounded-lg border border-neutral-300 bg-white p-4 text-neutral-900 backdrop:bg-black/50 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    >
      {open && (
        <div className="space-y-3 text-sm">
          <div className="flex items-start gap-2">
            <h2 id="group-creator-title" className="flex-1 text-base font-semibold">
              {t('title')}
            </h2>
            <button type="button" className={BUTTON} onClick={close}>
              {t('close')}
            </button>
          </div>
          <p className="text-neutral-700 dark:text-neutral-300">{t('help')}</p>
          {talk.length > 0 && (
            <ol aria-label={t('conversation')} className="space-y-1">
              {talk.map((m, i) => (
                <li key={i} className="break-words whitespace-pre-wrap">
                  <span className="font-medium">{m.role === 'user' ? t('you') : t('creator')}: </span>
                  {m.content}
                </li>
              ))}
            </ol>
          )}
          <form
            className="space-y-2"
            onSubmit={(e) => {
              e.preventDefault();
              void ask();
            }}
          >
            <label className="flex flex-col gap-1">
              <span className="font-medium">{messages.length ? t('reply') : t('describe')}</span>
              <textarea
                rows={3}
                className={FIELD}
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                    e.preventDefault();
                    void ask();
                  }
                }}
              />
            </label>
            <div className="flex items-center justify-end gap-2">
              {busy && (
                <span role="status" className="flex-1 text-neutral-700 dark:text-neutral-300">
                  {t('working')}
                </span>
              )}
              <button type="submit" className={BUTTON} disabled={busy || !text.trim()}>
                {t('send')}
              </button>
            </div>
          </form>
          {problem && (
            <p role="alert" className="rounded bg-red-50 px-2 py-1 text-red-900 dark:bg-red-950 dark:text-red-100">
              {problem}
            </p>
          )}
          {review.members.length > 0 && (
            <form
              aria-label={t('review')}
              className="space-y-3 border-t border-neutral-200 pt-3 dark:border-neutral-800"
              onSubmit={(e) => {
                e.preventDefault();
                void save();
              }}
            >
              <h3 className="font-semibold">{t('review')}</h3>
              <label className="flex flex-col gap-1">
                <span className="font-medium">{t('name')}</span>
                <input
                  className={FIELD}
                  value={review.name}
                  maxLength={60}
                  onChange={(e) => setReview((r) => ({ ...r, name: e.target.value }))}
                />
              </label>
              <label className="flex flex-col gap-1">
                <span className="font-medium">{t('background')}</span>
                <textarea
                  rows={2}
                  className={FIELD}
                  value={review.background}
                  onChange={(e) => setReview((r) => ({ ...r, background: e.target.value }))}
                />
              </label>
              <label className="flex flex-col gap-1">
                <span className="font-medium">{tAgents('selection')}</span>
                <select
                  className={FIELD}
                  value={review.selection}
                  onChange={(e) => setReview((r) => ({ ...r, selection: e.target.value as SpeakerSelection }))}
                >
                  {SPEAKER_SELECTIONS.map((s) => (
                    <option key={s} value={s}>
                      {tAgents(`selections.${s}`)}
                    </option>
                  ))}
                </select>
              </label>
              {review.members.map((m, i) => (
                <fieldset key={i} className="space-y-2 rounded border border-neutral-200 p-2 dark:border-neutral-800">
                  <legend className="px-1 font-medium">{t('member', { n: i + 1 })}</legend>
                  <label className="flex flex-col gap-1">
                    <span>{t('memberName')}</span>
                    <input
                      className={FIELD}
                      value={m.name}
                      maxLength={60}
                      onChange={(e) => patchMember(i, { name: e.target.value })}
                    />
                  </label>
                  <label className="flex flex-col gap-1">
                    <span>{t('memberDescription')}</span>
                    <input
                      className={FIELD}
                      value={m.description}
                      onChange={(e) => patchMember(i, { description: e.target.value })}
                    />
                  </label>
                  <label className="flex flex-col gap-1">
                    <span>{t('instructions')}</span>
                    <textarea
                      rows={3}
                      className={FIELD}
                      value={m.instructions}
                      onChange={(e) => patchMember(i, { instructions: e.target.value })}
                    />
                  </label>
                  <button
                    type="button"
                    className={BUTTON}
                    onClick={() => setReview((r) => ({ ...r, members: r.members.filter((_, j) => j !== i) }))}
                  >
                    {t('removeMember', { n: i + 1 })}
                  </button>
                </fieldset>
              ))}
              <div className="flex flex-wrap justify-end gap-2">
                <button
                  type="button"
                  className={BUTTON}
                  onClick={() =>
                    setReview((r) => ({
                      ...r,
                      members: [...r.members, { name: '', description: '', instructions: '' }],
                    }))
                  }
                >
                  {t('addMember')}
                </button>
                <button type="submit" className={PRIMARY} disabled={busy}>
                  {t('save', { n: review.members.length })}
                </button>
              </div>
            </form>
          )}
        </div>
      )}
    </dialog>
  );
}
