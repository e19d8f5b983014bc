'use client';
// The Agents section of the left column: the saved agents, each started in a new conversation, edited, duplicated,
// exported or deleted; a new agent, or one imported from its JSON file.
import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import type { PluginFailure } from '@/lib/chat/page';
import type { ImportChoice } from '@/lib/chat/saved-agents';
import { JsonFileButton } from '../json-file-button';
import { ListKeysHint, useListKeys } from '../list-keys';
import { useCodedText } from '../chat/server-text';
import { exportAgentFile } from '@/app/actions/agents';
import { ACTION_BODY_MAX_BYTES, ACTION_BODY_MAX_MB, fitsActionBody } from '@/lib/http/action-body';
import { AgentAvatar } from '../chat/agent-avatar';
import { focusComposer } from '../chat/composer-draft';
import { stepTo } from '../chat/conversation-address';
import { useChat } from '../chat/store';
import { downloadJson } from '../inspector/download';
import { useConfirm } from '../confirm-dialog';
import { useModalDialog } from '../modal-dialog';
import { blankAgent, definitionOf, refusalOf, useAgents, type AgentRefusal, type ListedAgent } from './agents-store';
import { FromCode } from './from-code';
import { GroupCreator } from './group-creator';

const SMALL =
  'rounded px-1.5 py-0.5 text-xs text-neutral-700 hover:bg-neutral-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-neutral-300 dark:hover:bg-neutral-700';

/** The row's buttons are named by their aria-labels (from the catalogs); these are only their pictures, drawn like
 *  the rest of the app's icons (the conversations' rename and delete are the same pencil and bin). */
const ICON = 'block size-4';
const OUTLINE = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.75,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;
const ICONS = {
  EDIT: (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={ICON} fill="currentColor">
      <path d="M13.6 2.6a2 2 0 0 1 2.8 2.8l-9 9-3.7.9.9-3.7 9-9Z" />
    </svg>
  ),
  DUPLICATE: (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={ICON} {...OUTLINE}>
      <rect x="7" y="7" width="10" height="10" rx="1.5" />
      <path d="M13 4.5A1.5 1.5 0 0 0 11.5 3h-7A1.5 1.5 0 0 0 3 4.5v7A1.5 1.5 0 0 0 4.5 13" />
    </svg>
  ),
  EXPORT: (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={ICON} {...OUTLINE}>
      <path d="M10 3v9m-4-4 4 4 4-4M4 14v1.5A1.5 1.5 0 0 0 5.5 17h9a1.5 1.5 0 0 0 1.5-1.5V14" />
    </svg>
  ),
  DELETE: (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={ICON} fill="currentColor">
      <path d="M7 2h6l1 2h4v2H2V4h4l1-2Zm-3 6h12l-1 10H5L4 8Zm4 2v6h1.5v-6H8Zm2.5 0v6H12v-6h-1.5Z" />
    </svg>
  ),
};

/** What went wrong last: an import refused, an import that left documents out or names tools this server does not
 *  have (each naming its file), an export or delete refused, or a delete not asked for since the agent is the only
 *  member of these Routers or GroupChats. */
type Problem =
  | { importFailed: AgentRefusal; file: string }
  | { missingDocuments: string[]; missingTools: string[]; file: string; name: string }
  | { refused: AgentRefusal }
  | { onlyMember: { name: string; holders: string[] } };

/** An import file larger than a server action carries, refused in the browser (its English said as the catalog does). */
const IMPORT_TOO_LARGE: AgentRefusal = {
  error: `This file is too large to import: at most ${ACTION_BODY_MAX_MB} MB.`,
  code: 'agent-import-too-large',
  values: { max: ACTION_BODY_MAX_MB },
};
/** An import whose server action failed without an answer (Next refuses a body over its limit with a 500). */
const IMPORT_UNSENT: AgentRefusal = {
  error: `The server did not take this file, so nothing was saved (an import is at most ${ACTION_BODY_MAX_MB} MB).`,
  code: 'agent-import-unsent',
  values: { max: ACTION_BODY_MAX_MB },
};

export function AgentsPanel({ onNavigate }: { onNavigate?: () => void }) {
  const t = useTranslations('agents');
  const agents = useAgents((s) => s.agents);
  const failures = useAgents((s) => s.pluginFailures);
  const { refresh, edit, remove, importFile } = useAgents.getState();
  // Kept as the server said it (its code and values) and put in words when shown: a language switch says it again.
  const [problem, setProblem] = useState<Problem>();
  const { dialog: confirmDialog, ask } = useConfirm();
  const codedText = useCodedText('errors');
  const format = useFormatter();
  const said = (r: AgentRefusal) => codedText({ message: r.error, code: r.code, values: r.values });
  const problemText =
    problem &&
    ('importFailed' in problem
      ? t('importFailed', { file: problem.file, error: said(problem.importFailed) })
      : 'missingDocuments' in problem
        ? [
            problem.missingTools.length > 0 &&
              t('importMissingTools', {
                name: problem.name,
                file: problem.file,
                tools: problem.missingTools.join(', '),
              }),
            problem.missingDocuments.length > 0 &&
              t('importMissingDocuments', { file: problem.file, names: problem.missingDocuments.join(', ') }),
          ]
            .filter(Boolean)
            .join(' ')
        : 'onlyMember' in problem
          ? codedText({
              code: 'agent-only-member',
              values: { name: problem.onlyMember.name, holders: format.list(problem.onlyMember.holders) },
            })
          : said(problem.refused));
  // The loader's refusals in the catalog's words (its English line starts with `at`, said apart); a module's own
  // error as it came.
  const loadError = (f: PluginFailure) => (f.code ? codedText({ code: f.code, values: f.values }) : f.error);
  // An import whose name one of the agents has: asked what to do before anything is saved.
  const [conflict, setConflict] = useState<{ text: string; file: string; name: string }>();
  const [creatingGroup, setCreatingGroup] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // One Tab stop, as the conversations are: ↑ ↓ Home End move between agents, → ← along a row's actions.
  const { list, tabIndex, row, lastFocused } = useListKeys(
    agents.map((a) => a.id),
    'button[data-agent-row]',
  );
  // An agent from code has no Edit or Delete: the keys' line names the actions of the agent the keyboard is on.
  const focusedFromCode = Boolean(agents.find((a) => a.id === lastFocused)?.plugin);
  const keysLines = { 'agent-keys': t('keys'), 'agent-keys-from-code': t('keysFromCode') };

  // Said while an import is saved and once it is: the list changes under the pointer, and an agent opened for
  // editing before a Replace lands would show (and save back) what it replaces. Each message names its file.
  const [importing, setImporting] = useState<{ file: string; done?: { name: string; replaced: boolean } }>();
  // One import at a time, and each one's messages its own: a new one clears what the last one said, and an answer
  // that comes after another import started is not shown as that one's.
  const lastImport = useRef(0);
  const importBusy = importing !== undefined && !importing.done;

  const imported = async (text: string, file: string, choice?: ImportChoice) => {
    const mine = ++lastImport.current;
    setProblem(undefined);
    // Larger than a server action may carry (its JSON, escapes and all): refused here, with the limit, not sent.
    if (!fitsActionBody(text, choice)) return tooLarge(file);
    setImporting({ file });
    let result: Awaited<ReturnType<typeof importFile>>;
    try {
      result = await importFile(text, choice);
    } catch {
      // The server took no answer back (a body over its limit, a dropped connection): the import ends, said so.
      result = { refused: IMPORT_UNSENT };
    }
    if (mine !== lastImport.current) return;
    const left = 'name' in result && (result.missingDocuments.length > 0 || result.missingTools.length > 0);
    setImporting(
      'name' in result && !left ? { file, done: { name: result.name, replaced: choice === 'replace' } } : undefined,
    );
    if ('conflict' in result) return setConflict({ text, file, name: result.conflict.name });
    if ('refused' in result) setProblem({ importFailed: result.refused, file });
    else if (left) setProblem({ ...result, file });
  };
  const tooLarge = (file: string) => {
    ++lastImport.current;
    setImporting(undefined);
    setProblem({ importFailed: IMPORT_TOO_LARGE, file });
  };
  const importingText =
    importing &&
    (importing.done
      ? t(importing.done.replaced ? 'importReplaced' : 'importDone', {
          name: importing.done.name,
          file: importing.file,
        })
      : t('importSaving', { file: importing.file }));

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // The Routers and GroupChats holding it lose it with it (the server does both at once); one it is the only member
  // of keeps it: said here, before asking, and by the server too should the list be behind.
  const askThenDelete = async (agent: ListedAgent) => {
    const holders = agents.filter((h) => !h.plugin && h.id !== agent.id && h.members.includes(agent.id));
    const emptied = holders.filter((h) => h.members.every((m) => m === agent.id));
    if (emptied.length) return setProblem({ onlyMember: { name: agent.name, holders: emptied.map((h) => h.name) } });
    const question = holders.length
      ? t('confirmDeleteHeld', { name: agent.name, holders: format.list(holders.map((h) => h.name)) })
      : t('confirmDelete', { name: agent.name });
    if (!(await ask({ title: question, confirm: t('deleteYes'), cancel: t('cancel') }))) return;
    const refused = await remove(agent.id);
    setProblem(refused && { refused });
    // Its row took the focused button with it: the keyboard goes on from the list's heading.
    if (!refused) heading.current?.focus();
  };

  return (
    <section ref={list} aria-labelledby="agents-heading" className="group/list space-y-1">
      <div className="flex flex-wrap items-center gap-1">
        <h2 id="agents-heading" ref={heading} tabIndex={-1} className="flex-1 text-sm font-semibold focus:outline-none">
          {t('title')}
        </h2>
        <button type="button" className={SMALL} onClick={() => edit({ definition: blankAgent() })}>
          {t('new')}
        </button>
        <button type="button" className={SMALL} onClick={() => setCreatingGroup(true)}>
          {t('newGroup')}
        </button>
        <JsonFileButton
          className={SMALL}
          inputLabel={t('import')}
          busy={importBusy}
          maxBytes={ACTION_BODY_MAX_BYTES}
          onTooLarge={tooLarge}
          onFile={(text, file) => imported(text, file)}
        >
          {t('import')}
        </JsonFileButton>
      </div>
      <GroupCreator open={creatingGroup} onClose={() => setCreatingGroup(false)} />
      {confirmDialog}
      <ImportConflict
        name={conflict?.name}
        onChoose={(choice) => {
          setConflict(undefined);
          if (conflict && choice) void imported(conflict.text, conflict.file, choice);
        }}
      />
      <p role="status" className="text-xs text-neutral-700 dark:text-neutral-300">
        {importingText}
      </p>
      {problemText && (
        <p role="alert" className="rounded bg-red-50 px-2 py-1 text-xs text-red-900 dark:bg-red-950 dark:text-red-100">
          {problemText}
        </p>
      )}
      {failures.length > 0 && (
        <div
          role="alert"
          className="rounded bg-red-50 px-2 py-1 text-xs text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          <p className="font-semibold">{t('pluginFailures')}</p>
          <ul>
            {failures.map((f) => (
              <li key={f.file} data-plugin-failure={f.file} className="break-words">
                {f.at
                  ? t('pluginFailedAt', { file: f.file, at: f.at, error: loadError(f) })
                  : t('pluginFailed', { file: f.file, error: loadError(f) })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {agents.length === 0 && <p className="px-2 text-xs text-neutral-600 dark:text-neutral-400">{t('empty')}</p>}
      <ul className="max-h-48 space-y-0.5 overflow-y-auto">
        {agents.map((a) => (
          <li
            key={a.id}
            {...row(a.id)}
            className="group flex items-center gap-1 rounded-lg hover:bg-neutral-100 dark:hover:bg-neutral-900"
          >
            <button
              type="button"
              aria-label={t('chatWith', { name: a.name })}
              data-agent-row={a.id}
              tabIndex={tabIndex(a.id)}
              aria-describedby={a.plugin ? 'agent-keys-from-code' : 'agent-keys'}
              onClick={() => {
                const agent = {
                  id: a.id,
                  name: a.name,
                  avatar: a.avatar,
                  description: a.description,
                  suggestions: a.suggestions,
                };
                stepTo(undefined, { newChatAgent: agent });
                useChat.getState().newChat(agent);
                onNavigate?.();
                focusComposer();
              }}
              className="flex min-w-0 flex-1 items-center gap-2 truncate rounded-lg px-2 py-1.5 text-left text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
            >
              <AgentAvatar avatar={a.avatar} />
              <span className="truncate">{a.name}</span>
            </button>
            {a.plugin ? (
              <FromCode file={a.plugin} />
            ) : (
              <button
                type="button"
                aria-label={t('edit', { name: a.name })}
                tabIndex={-1}
                className={SMALL}
                onClick={() => edit({ id: a.id, definition: definitionOf(a) })}
              >
                {ICONS.EDIT}
              </button>
            )}
            <button
              type="button"
              aria-label={t('duplicate', { name: a.name })}
              tabIndex={-1}
              className={SMALL}
              onClick={() =>
                edit({ definition: { ...definitionOf(a), name: t('copyName', { name: a.name }).slice(0, 60) } })
              }
            >
              {ICONS.DUPLICATE}
            </button>
            <button
              type="button"
              aria-label={t('export', { name: a.name })}
              tabIndex={-1}
              className={SMALL}
              onClick={async () => {
                const result = await exportAgentFile(a.id);
                if (!result.ok) return setProblem({ refused: refusalOf(result) });
                downloadJson(`agent-${a.name.replace(/[^\w-]+/g, '-').toLowerCase() || a.id}.json`, result.value);
              }}
            >
              {ICONS.EXPORT}
            </button>
            {!a.plugin && (
              <button
                type="button"
                aria-label={t('delete', { name: a.name })}
                tabIndex={-1}
                className={SMALL}
                onClick={() => void askThenDelete(a)}
              >
                {ICONS.DELETE}
              </button>
            )}
          </li>
        ))}
      </ul>
      {agents.length > 0 &&
        // Each row is said with the line of its kind; the one drawn is the focused row's, the other kept hidden.
        Object.entries(keysLines).map(([id, text]) =>
          id === (focusedFromCode ? 'agent-keys-from-code' : 'agent-keys') ? (
            <ListKeysHint key={id} id={id} keepRoom>
              {text}
            </ListKeysHint>
          ) : (
            <p key={id} id={id} hidden>
              {text}
            </p>
          ),
        )}
    </section>
  );
}

/** Asks what to do with an import whose name an agent has: replace it, keep both, or cancel (nothing is saved). */
function ImportConflict({ name, onChoose }: { name?: string; onChoose: (choice?: ImportChoice) => void }) {
  const t = useTranslations('agents');
  const dialog = useModalDialog(name !== undefined);
  const button =
    'rounded border border-neutral-300 px-3 py-1 text-sm hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800';
  return (
    <dialog
      ref={dialog}
      aria-label={t('importExists', { name: name ?? '' })}
      aria-describedby="agent-import-conflict"
      onClose={() => name !== undefined && onChoose(undefined)}
      className="m-auto w-[min(28rem,95vw)] rounded-lg border border-neutral-300 bg-white p-4 text-neutral-900 backdrop:bg-black/50 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    >
      {name !== undefined && (
        <div className="space-y-3 text-sm">
          <h2 className="text-base font-semibold">{t('importExists', { name })}</h2>
          <p id="agent-import-conflict">{t('importExistsHelp', { name })}</p>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={button} onClick={() => onChoose(undefined)}>
              {t('cancel')}
            </button>
            <button type="button" className={button} onClick={() => onChoose('keep-both')}>
              {t('keepBoth')}
            </button>
            <button
              type="button"
              className="rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800"
              onClick={() => onChoose('replace')}
            >
              {t('replace')}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
