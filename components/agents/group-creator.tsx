'use client';
// "New group" on the Agents list: the user describes a group in words and talks it over with GroupChatCreator; each
// answer brings the group as drafted so far, shown as a form to review and change; saved, each member is an agent of
// the user's and the group a GroupChat holding them (lib/chat/group-drafts.ts). The creator's words are shown as
// text: model output is never markup here. A refusal is said in the page's language by the control at fault, which
// takes the focus.
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { draftAgentGroup, saveAgentGroup } from '@/app/actions/agents';
import type { RoleConfig } from '@/lib/agent/group-chat-creator';
import { SPEAKER_SELECTIONS, type SpeakerSelection } from '@/lib/protocol/enums';
import { useCodedText } from '../chat/server-text';
import { useModalDialog } from '../modal-dialog';
import { reachServer } from '../chat/reach-server';
import { refusalOf, useAgents, type AgentRefusal } from './agents-store';

type DraftMessage = { role: 'user' | 'assistant'; content: string; name?: string };

interface Review {
  name: string;
  background: string;
  members: RoleConfig[];
  selection: SpeakerSelection;
}

const EMPTY: Review = { name: '', background: '', members: [], selection: 'round_robin' };
const PROBLEM = 'group-creator-problem';

/** The control a refusal's field names, as this dialog shows it: the field itself, else the nearest one holding it
 *  ("messages.3.content" is the reply box, "members" the last member's Remove); none when it is not on screen. */
function faultOf(field: string | undefined, review: Review): string | undefined {
  const shown = (path: string) => {
    const member = /^members\.(\d+)\.(name|description|instructions)$/.exec(path);
    if (member) return Number(member[1]) < review.members.length;
    if (path === 'members' || path === 'name' || path === 'background' || path === 'selection')
      return review.members.length > 0; // the review form is there
    return path === 'messages';
  };
  for (let path = field ?? ''; path; path = path.slice(0, Math.max(0, path.lastIndexOf('.'))))
    if (shown(path)) return path;
  return undefined;
}

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
  // Kept as the server said it (its code, the field at fault) and put in words when shown, in the page's language.
  const [problem, setProblem] = useState<AgentRefusal>();
  const codedText = useCodedText('errors');
  const problemText = problem && codedText({ message: problem.error, code: problem.code, values: problem.values });
  const fault = faultOf(problem?.field, review);
  const body = useRef<HTMLDivElement>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  // The refusal's message, by the control at fault (which it describes) or, naming none, above the review.
  const problemAt = (path?: string): ReactNode =>
    problemText && fault === path ? (
      <p
        ref={alert}
        id={PROBLEM}
        role="alert"
        tabIndex={-1}
        className="rounded bg-red-50 px-2 py-1 break-words text-red-900 dark:bg-red-950 dark:text-red-100"
      >
        {problemText}
      </p>
    ) : null;
  const faulty = (path: string) =>
    fault === path ? { 'aria-invalid': true, 'aria-describedby': PROBLEM, 'data-fault': true } : {};

  // A refusal takes the focus to the control at fault. Naming none, the message takes it if the focus was lost (the
  // button pressed is disabled while the server answers); Enter in the reply box keeps it there.
  useEffect(() => {
    if (!problem) return;
    const at = body.current?.querySelector<HTMLElement>('[data-fault]');
    if (at) at.focus();
    else if (!body.current?.contains(document.activeElement)) alert.current?.focus();
  }, [problem]);

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
    const result = await reachServer(() => draftAgentGroup({ messages: asked }));
    setBusy(false);
    if (!result.ok) return setProblem(refusalOf(result));
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
    const result = await reachServer(() => saveAgentGroup(review));
    setBusy(false);
    if (!result.ok) return setProblem(refusalOf(result));
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
        <div ref={body} className="space-y-3 text-sm">
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
                {...faulty('messages')}
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
            {problemAt('messages')}
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
          {problemAt(undefined)}
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
                  {...faulty('name')}
                  value={review.name}
                  maxLength={60}
                  onChange={(e) => setReview((r) => ({ ...r, name: e.target.value }))}
                />
              </label>
              {problemAt('name')}
              <label className="flex flex-col gap-1">
                <span className="font-medium">{t('background')}</span>
                <textarea
                  rows={2}
                  className={FIELD}
                  {...faulty('background')}
                  value={review.background}
                  onChange={(e) => setReview((r) => ({ ...r, background: e.target.value }))}
                />
              </label>
              {problemAt('background')}
              <label className="flex flex-col gap-1">
                <span className="font-medium">{tAgents('selection')}</span>
                <select
                  className={FIELD}
                  {...faulty('selection')}
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
              {problemAt('selection')}
              {review.members.map((m, i) => (
                <fieldset key={i} className="space-y-2 rounded border border-neutral-200 p-2 dark:border-neutral-800">
                  <legend className="px-1 font-medium">{t('member', { n: i + 1 })}</legend>
                  <label className="flex flex-col gap-1">
                    <span>{t('memberName')}</span>
                    <input
                      className={FIELD}
                      {...faulty(`members.${i}.name`)}
                      value={m.name}
                      maxLength={60}
                      onChange={(e) => patchMember(i, { name: e.target.value })}
                    />
                  </label>
                  {problemAt(`members.${i}.name`)}
                  <label className="flex flex-col gap-1">
                    <span>{t('memberDescription')}</span>
                    <input
                      className={FIELD}
                      {...faulty(`members.${i}.description`)}
                      value={m.description}
                      onChange={(e) => patchMember(i, { description: e.target.value })}
                    />
                  </label>
                  {problemAt(`members.${i}.description`)}
                  <label className="flex flex-col gap-1">
                    <span>{t('instructions')}</span>
                    <textarea
                      rows={3}
                      className={FIELD}
                      {...faulty(`members.${i}.instructions`)}
                      value={m.instructions}
                      onChange={(e) => patchMember(i, { instructions: e.target.value })}
                    />
                  </label>
                  {problemAt(`members.${i}.instructions`)}
                  <button
                    type="button"
                    className={BUTTON}
                    // Too many members: the last one's Remove is where to act.
                    {...(fault === 'members' && i === review.members.length - 1
                      ? { 'aria-describedby': PROBLEM, 'data-fault': true }
                      : {})}
                    onClick={() => setReview((r) => ({ ...r, members: r.members.filter((_, j) => j !== i) }))}
                  >
                    {t('removeMember', { n: i + 1 })}
                  </button>
                </fieldset>
              ))}
              {problemAt('members')}
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
