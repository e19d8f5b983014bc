'use client';
import { useFormatter, useTranslations } from 'next-intl';
import Link from 'next/link';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AgentsPanel } from '../agents/agents-panel';
import { useConfirm } from '../confirm-dialog';
import { ImportRunButton } from '../inspector/import-run-button';
import { ListKeysHint, useListKeys } from '../list-keys';
import { focusComposer } from './composer-draft';
import { stepTo } from './conversation-address';
import { useConversationTitle } from './conversation-title';
import { groupByDate, type DateGroupKey } from './date-groups';
import { useChat } from './store';

/** Conversations, newest first: open, rename, delete, search by title and text; below them, the saved agents. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const t = useTranslations('sidebar');
  const titleOf = useConversationTitle();
  const conversations = useChat((s) => s.conversations);
  const activeId = useChat((s) => s.activeId);
  const { search, open, newChat, rename, remove } = useChat.getState();
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<string | undefined>();
  // Delete asks first, in the page's own dialog (its buttons in the page's language).
  const { dialog: confirmDialog, ask } = useConfirm();
  const groupName = useDateGroupName();
  // Grouped by the day each was last active (the browser's days); computed again when the list changes.
  const groups = useMemo(() => groupByDate(conversations, new Date()), [conversations]);
  const [draft, setDraft] = useState('');
  // The conversation whose title edit just ended: its Rename button takes the focus back when it is drawn again.
  const renamed = useRef<string | undefined>(undefined);
  const endEdit = (id: string) => {
    renamed.current = id;
    setEditing(undefined);
  };
  // The list is one Tab stop (the row last focused, else the open conversation's, else the first): ↑ ↓ Home End move
  // between conversations, → ← between a row's title, Rename and Delete.
  const { list, tabIndex, row, leads } = useListKeys(
    conversations.map((c) => c.id),
    'button[data-conversation]',
    activeId,
  );
  // A deleted row takes its buttons with it: the focus goes to the conversation that takes its place (the one
  // above when it was the last), or to the search box when none is left, not to the page's body.
  const searchBox = useRef<HTMLInputElement>(null);
  const focusAfterDeleting = (id: string) => {
    const rows = leads();
    const at = rows.findIndex((b) => b.dataset.conversation === id);
    (rows[at + 1] ?? rows[at - 1] ?? searchBox.current)?.focus();
  };

  useEffect(() => {
    const timer = setTimeout(() => void search(query), 150);
    return () => clearTimeout(timer);
  }, [query, search]);

  return (
    <div className="flex h-full flex-col">
      <nav ref={list} aria-label={t('conversations')} className="group/list flex min-h-0 flex-1 flex-col gap-2 p-3">
        <button
          type="button"
          onClick={() => {
            stepTo(undefined);
            newChat();
            onNavigate?.();
            focusComposer();
          }}
          className="rounded-lg border border-neutral-300 px-3 py-2 text-left font-medium hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800"
        >
          {t('newChat')}
        </button>
        <ImportRunButton onOpened={onNavigate} />
        <Link
          href="/runs"
          className="rounded px-2 py-1 text-neutral-700 hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-800"
        >
          {t('runs')}
        </Link>
        <input
          ref={searchBox}
          type="search"
          aria-label={t('search')}
          placeholder={t('searchPlaceholder')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm placeholder:text-neutral-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:bg-neutral-900 dark:placeholder:text-neutral-400"
        />
        <div className="flex-1 space-y-3 overflow-y-auto">
          {conversations.length === 0 && (
            <ul>
              <li className="px-2 py-1 text-sm text-neutral-600 dark:text-neutral-400">
                {query ? t('noMatch') : t('empty')}
              </li>
            </ul>
          )}
          {groups.map((group) => (
            <div key={group.id}>
              <h2
                id={`conversations-${group.id}`}
                className="px-2 pb-1 text-xs font-semibold text-neutral-600 dark:text-neutral-400"
              >
                {groupName(group.key)}
              </h2>
              <ul aria-labelledby={`conversations-${group.id}`} className="space-y-1">
                {group.items.map((c) => {
                  const title = titleOf(c.title);
                  return (
                    <li
                      key={c.id}
                      {...row(c.id)}
                      className={`group flex items-center gap-1 rounded-lg ${c.id === activeId ? 'bg-neutral-200 dark:bg-neutral-800' : 'hover:bg-neutral-100 dark:hover:bg-neutral-900'}`}
                    >
                      {editing === c.id ? (
                        <form
                          className="flex flex-1 gap-1 p-1"
                          onSubmit={(e) => {
                            e.preventDefault();
                            endEdit(c.id);
                            void rename(c.id, draft);
                          }}
                        >
                          <input
                            aria-label={t('newTitle')}
                            autoFocus
                            value={draft}
                            onChange={(e) => setDraft(e.target.value)}
                            onKeyDown={(e) => e.key === 'Escape' && endEdit(c.id)}
                            className="min-w-0 flex-1 rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
                          />
                          <button
                            type="submit"
                            className="rounded px-2 text-sm font-medium text-blue-700 dark:text-blue-300"
                          >
                            {t('save')}
                          </button>
                        </form>
                      ) : (
                        <>
                          <button
                            type="button"
                            data-conversation={c.id}
                            tabIndex={tabIndex(c.id)}
                            aria-describedby="conversation-keys"
                            aria-current={c.id === activeId ? 'page' : undefined}
                            onClick={() => {
                              stepTo(c.id);
                              void open(c.id);
                              onNavigate?.();
                            }}
                            className="min-w-0 flex-1 truncate rounded-lg px-2 py-2 text-left text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
                          >
                            {title}
                          </button>
                          <button
                            type="button"
                            aria-label={t('rename', { title })}
                            tabIndex={-1}
                            ref={(button) => {
                              if (button && renamed.current === c.id) {
                                renamed.current = undefined;
                                button.focus();
                              }
                            }}
                            onClick={() => {
                              setDraft(title);
                              setEditing(c.id);
                            }}
                            className="rounded px-1.5 py-1 text-sm text-neutral-700 hover:bg-neutral-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-700"
                          >
                            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                              <path d="M13.6 2.6a2 2 0 0 1 2.8 2.8l-9 9-3.7.9.9-3.7 9-9Z" />
                            </svg>
                          </button>
                          <button
                            type="button"
                            aria-label={t('delete', { title })}
                            tabIndex={-1}
                            onClick={async () => {
                              const yes = await ask({
                                title: t('confirmDelete', { title }),
                                confirm: t('deleteYes'),
                                cancel: t('deleteNo'),
                              });
                              if (!yes) return;
                              focusAfterDeleting(c.id);
                              void remove(c.id);
                            }}
                            className="rounded px-1.5 py-1 text-sm text-neutral-700 hover:bg-red-100 hover:text-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-red-950 dark:hover:text-red-200"
                          >
                            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                              <path d="M7 2h6l1 2h4v2H2V4h4l1-2Zm-3 6h12l-1 10H5L4 8Zm4 2v6h1.5v-6H8Zm2.5 0v6H12v-6h-1.5Z" />
                            </svg>
                          </button>
                        </>
                      )}
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </div>
        <ListKeysHint id="conversation-keys">{t('keys')}</ListKeysHint>
      </nav>
      <div className="border-t border-neutral-200 p-3 dark:border-neutral-800">
        <AgentsPanel onNavigate={onNavigate} />
      </div>
      {confirmDialog}
    </div>
  );
}

/** "Today", "Yesterday", "Previous 7 days", "Previous 30 days", "March 2026" in the page's language. */
function useDateGroupName(): (key: DateGroupKey) => string {
  const t = useTranslations('sidebar.groups');
  const format = useFormatter();
  return useCallback(
    (key: DateGroupKey) =>
      typeof key === 'string'
        ? t(key)
        : format.dateTime(new Date(key.year, key.month - 1, 1), { year: 'numeric', month: 'long' }),
    [t, format],
  );
}
