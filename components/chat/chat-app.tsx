'use client';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { isPluginAgentId } from '@/lib/chat/agent-ids';
import { documentToolsRule } from '@/lib/chat/document-tools';
import type { AppInfo } from '@/lib/chat/page';
import { UserMenu } from '../account/user-menu';
import { useInspector } from '../inspector/inspector-store';
import { RunInspector, type IterationActionContext } from '../inspector/run-inspector';
import { ReplayFromHere } from '../runs/replay-from-here';
import { Composer } from './composer';
import { useConversationTitle } from './conversation-title';
import { LanguageSelect } from '../language-select';
import { useCodedText } from './server-text';
import { AgentEditor } from '../agents/agent-editor';
import { useAgents } from '../agents/agents-store';
import { AgentAvatar } from './agent-avatar';
import { SettingsPanel } from './settings-panel';
import { SimulateUserButton, SimulationStatus } from './simulate-user-dialog';
import { Sidebar } from './sidebar';
import { useChat } from './store';
import { ThemeToggle } from './theme-toggle';
import { Thread } from './thread';
import { fileDropHandlers } from './file-drop';
import { followElsewhere } from './follow-elsewhere';
import { Welcome } from './welcome';
import { focusComposer } from './composer-draft';
import { conversationInAddress, replaceStep } from './conversation-address';
import { useHistorySteps } from './history-steps';
import { addMenuStep, backClosesDialog, isMenuStep, leaveMenuStep } from './menu-step';
import { PHONE, usePhone } from './use-phone';
import { rememberedChoice, withChoice } from './new-chat-defaults';
import { useHasDocuments } from './document-tools-setting';
import { ModelPicker } from '../models/model-picker';
import { ModelsDialog, NoModelYet } from '../models/models-dialog';
import { useModels, useModelsConfigured } from '../models/models-store';

export function ChatApp({ info }: { info: AppInfo }) {
  const t = useTranslations('header');
  const tApp = useTranslations('app');
  const titleText = useConversationTitle();
  const noticeText = useCodedText('errors');
  // The conversation shown: the one being opened (by its address, or from the list) from the moment it is asked for.
  const shownId = useChat((s) => s.opening ?? s.activeId);
  const opening = useChat((s) => Boolean(s.opening));
  // The conversation's title as the list has it, so the header says what the sidebar says as soon as it has one.
  const title = useChat((s) => {
    const id = s.opening ?? s.activeId;
    return id ? (s.conversations.find((c) => c.id === id)?.title ?? (s.opening ? undefined : s.title)) : undefined;
  });
  const notice = useChat((s) => s.notice);
  const [menuOpen, setMenuOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const settingsButton = useRef<HTMLButtonElement>(null);
  // On a phone the menu and the settings cover the screen: Escape closes them, and the focus goes back to the
  // button that opened them. The menu is a step of the history there (menu-step.ts): Back closes it too.
  const openMenu = () => {
    setMenuOpen(true);
    if (matchMedia(PHONE).matches) addMenuStep();
  };
  /** Closed by what was picked in it (a conversation, a new chat, an imported run): the focus goes with that. */
  const leaveMenu = () => {
    // At once, so that what was under the menu takes the focus (it cannot while the menu covers it: inert).
    flushSync(() => setMenuOpen(false));
    leaveMenuStep();
  };
  const closeMenu = () => {
    leaveMenu();
    menuButton.current?.focus();
  };
  const closeSettings = () => {
    flushSync(() => setSettingsOpen(false));
    settingsButton.current?.focus();
  };
  // What covers a phone's screen keeps the keyboard: the page under it is inert until it closes.
  const phone = usePhone();
  const menuCovers = phone && menuOpen;
  const settingsCover = phone && settingsOpen && !menuOpen;
  const thread = useRef<HTMLDivElement>(null);
  const closeMenuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (menuOpen && matchMedia(PHONE).matches) closeMenuButton.current?.focus();
  }, [menuOpen]);
  // Back (or Forward) moves off the menu's step, or onto it: the menu follows. Back from a page opened from the menu
  // (Runs) comes to this page with the menu open, as it was left.
  const aside = useRef<HTMLElement>(null);
  useEffect(() => {
    /** On a step (`step`: Back or Forward), at once, so that what was under the menu can take the focus. */
    const follow = (step?: PopStateEvent) => {
      const open = isMenuStep(window.history.state) && matchMedia(PHONE).matches;
      // Back from the menu with a dialog opened from it still over it: the dialog closes, the menu stays.
      if (step && !open && matchMedia(PHONE).matches && aside.current?.checkVisibility() && backClosesDialog()) return;
      if (step) flushSync(() => setMenuOpen(open));
      else setMenuOpen(open);
      // Closed under the focus: it goes back to the button that opens the menu.
      if (!open && aside.current?.contains(document.activeElement) && matchMedia(PHONE).matches)
        menuButton.current?.focus();
    };
    follow();
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  // Taken once: the page is rendered again when the language changes, and that must not reopen the conversation
  // (which would drop the run being streamed) or reset a new chat's settings (or put a new chat's in place of the
  // open conversation's). The served agent and the plugins' failures too: each render brings new objects.
  const [defaultSettings] = useState(info.defaultSettings);
  const [defaultAgent] = useState(info.defaultAgent);
  const [pluginFailures] = useState(info.pluginFailures);
  // The conversation the address names when the page comes in, opened once. Read from the browser's address once it
  // is this page's (a link from Runs renders the page before the address changes; a step Back restores may come with
  // the render of another step's).
  const openedFirst = useRef(false);
  const [modelsInfo] = useState(info.models);
  const configured = useModelsConfigured(modelsInfo.configured);

  useEffect(() => {
    const models = useModels.getState();
    models.init(modelsInfo);
    void models.refresh();
  }, [modelsInfo]);

  // A new chat starts with the model and tools this user chose last (in this browser), else the server's defaults.
  const chooser = info.account?.email || 'local';
  const [offers] = useState(() => info.tools.map((t) => t.name));
  const newChatSettings = useCallback(
    () => withChoice(defaultSettings, rememberedChoice(chooser), offers),
    [defaultSettings, chooser, offers],
  );

  useEffect(() => {
    const chat = useChat.getState();
    useChat.setState({ chooser });
    // The served agent (npm run serve) is every new chat's, until another is chosen.
    if (defaultAgent) {
      useChat.setState({ defaultAgent });
      if (!useChat.getState().activeId && !useChat.getState().draftAgent)
        useChat.setState({ draftAgent: defaultAgent });
    }
    useAgents.setState({ pluginFailures: pluginFailures ?? [] });
    chat.setDraftSettings(newChatSettings());
    void chat.refreshConversations();
    if (openedFirst.current) return;
    openedFirst.current = true;
    const first = conversationInAddress(window.location.search);
    if (first) void chat.open(first, { newChatIfGone: true });
  }, [newChatSettings, chooser, defaultAgent, pluginFailures]);

  // The address bar names the open conversation (or the one being opened), so a reload comes back to it. The user's
  // moves add their own steps to the history (conversation-address.ts); what changes here without one (a new chat
  // that became a conversation, the one shown deleted) replaces the step it happened in.
  const activeId = useChat((s) => s.activeId);
  // (Read from the store: the first render's value was taken before the address's conversation was asked for.) One
  // asked for whose load got no answer (the sign-in gone) stays in the address: "Sign in again" comes back to it.
  useEffect(() => {
    const chat = useChat.getState();
    replaceStep(chat.opening ?? chat.unreached ?? chat.activeId);
  }, [shownId]);
  useHistorySteps(thread);

  useEffect(() => {
    if (activeId) return;
    const chat = useChat.getState();
    // A saved agent's new chat runs on the agent's model until the picker names another.
    const settings = newChatSettings();
    chat.setDraftSettings(chat.draftAgent ? { ...settings, model: undefined } : settings);
  }, [activeId, newChatSettings]);

  // A remembered model the list no longer has (its connection removed) gives way to the server's default; a model
  // picked since is the user's (the list may not have it yet: a GGUF just uploaded).
  const groups = useModels((s) => s.groups);
  const draftModel = useChat((s) => (s.activeId ? undefined : s.settings?.model));
  const remembered = useMemo(() => rememberedChoice(chooser).model, [chooser]);
  useEffect(() => {
    if (!groups || !draftModel || draftModel !== remembered) return;
    if (groups.some((g) => g.models.some((m) => m.id === draftModel))) return;
    const settings = useChat.getState().settings;
    if (settings) useChat.getState().setDraftSettings({ ...settings, model: undefined });
  }, [groups, draftModel, remembered]);

  // The browser tab is named after the open conversation.
  const appName = tApp('name');
  const tabTitle = shownId && title ? tApp('tabTitle', { title: titleText(title), app: appName }) : appName;
  useEffect(() => {
    document.title = tabTitle;
    // Next.js puts the layout's title back when the address changes (history.replaceState above): keep ours.
    const keep = new MutationObserver(() => {
      if (document.title !== tabTitle) document.title = tabTitle;
    });
    keep.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => keep.disconnect();
  }, [tabTitle]);

  // Another tab or window may have sent a message here meanwhile (the server pushes nothing to an idle page): coming
  // back to this one shows it, and follows its answer. In view without the focus, the page follows it meanwhile.
  useEffect(() => {
    const back = () => {
      if (document.visibilityState === 'visible') void useChat.getState().catchUp();
    };
    document.addEventListener('visibilitychange', back);
    window.addEventListener('focus', back);
    const stopFollowing = followElsewhere();
    return () => {
      document.removeEventListener('visibilitychange', back);
      window.removeEventListener('focus', back);
      stopFollowing();
    };
  }, []);

  // A conversation started by an upload gets its title with its first message: fetch the list when a run starts.
  const running = useChat((s) => Boolean(s.runningRunId));
  useEffect(() => {
    if (running) void useChat.getState().refreshConversations();
  }, [running]);

  return (
    <div className="flex h-dvh overflow-hidden">
      {/* The first Tab stop: past the conversations and agents (three stops a conversation) to the thread. */}
      <a
        inert={menuCovers || settingsCover}
        href="#thread"
        onClick={(e) => {
          e.preventDefault();
          thread.current?.focus();
        }}
        className="sr-only rounded-md bg-white font-medium text-blue-800 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:px-3 focus:py-2 focus:outline-2 focus:outline-blue-600 dark:bg-neutral-900 dark:text-blue-300"
      >
        {t('skipToThread')}
      </a>
      <aside
        ref={aside}
        inert={settingsCover}
        onKeyDown={(e) => {
          if (menuOpen && escapeOnPhone(e)) closeMenu();
        }}
        className={`${menuOpen ? 'fixed inset-0 z-20 flex' : 'hidden'} w-full flex-col border-r border-neutral-200 bg-neutral-50 md:static md:flex md:w-72 md:shrink-0 dark:border-neutral-800 dark:bg-neutral-900`}
      >
        <div className="flex items-center justify-between p-3 pb-0 md:hidden">
          <span className="font-semibold">{tApp('name')}</span>
          <button
            type="button"
            ref={closeMenuButton}
            onClick={closeMenu}
            className="rounded px-2 py-1 hover:bg-neutral-200 dark:hover:bg-neutral-800"
          >
            {t('closeMenu')}
          </button>
        </div>
        {/* The rest of the screen under the phone's menu bar, so the agents at its foot are not cut off. */}
        <div className="min-h-0 flex-1">
          <Sidebar onNavigate={leaveMenu} />
        </div>
      </aside>
      <main inert={menuCovers} className="flex min-w-0 flex-1 flex-col" {...fileDropHandlers}>
        {/* On a phone the title keeps its row (with Menu and Settings); Simulate a user, the picker and the switches
            take a second. */}
        <header
          inert={settingsCover}
          className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-neutral-200 px-3 py-2 dark:border-neutral-800"
        >
          <button
            ref={menuButton}
            type="button"
            onClick={openMenu}
            className="rounded px-2 py-1 hover:bg-neutral-200 md:hidden dark:hover:bg-neutral-800"
          >
            {t('menu')}
          </button>
          <h1 className="min-w-0 flex-1 truncate font-semibold">
            {title ? titleText(title) : opening ? t('opening') : t('newChat')}
          </h1>
          <button
            ref={settingsButton}
            type="button"
            aria-expanded={settingsOpen}
            aria-controls="settings-panel"
            onClick={() => setSettingsOpen((v) => !v)}
            onKeyDown={(e) => {
              if (settingsOpen && escapeKey(e)) closeSettings();
            }}
            className="rounded-lg px-2 py-1 text-sm hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-neutral-800"
          >
            {t('settings')}
          </button>
          <div className="flex min-w-0 items-center gap-2 max-md:w-full">
            <SimulateUserButton />
            <ModelPicker />
            <LanguageSelect />
            <ThemeToggle />
            {info.account && <UserMenu account={info.account} />}
          </div>
        </header>
        <NoModelYet initial={modelsInfo.configured} />
        {notice && (
          <div
            inert={settingsCover}
            role="alert"
            className="flex items-start gap-2 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            <span className="flex-1">{noticeText(notice)}</span>
            <button
              type="button"
              onClick={() => useChat.getState().dismissNotice()}
              className="rounded px-2 hover:bg-red-100 dark:hover:bg-red-900"
            >
              {t('dismiss')}
            </button>
          </div>
        )}
        <div className="flex min-h-0 flex-1">
          <div
            ref={thread}
            inert={settingsCover}
            id="thread"
            role="region"
            aria-label={t('thread')}
            tabIndex={-1}
            data-thread-scroller
            className="min-w-0 flex-1 overflow-y-auto focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-inset"
          >
            {/* A conversation being opened on an empty page (by its address, or from a new chat) is not the new chat's
                welcome: what is sent meanwhile goes to it. */}
            <Thread
              empty={
                opening ? (
                  <p role="status" className="mx-auto mt-6 max-w-3xl px-4 text-neutral-600 dark:text-neutral-400">
                    {t('opening')}
                  </p>
                ) : (
                  <NewConversation info={info} />
                )
              }
            />
          </div>
          {settingsOpen && (
            <div
              id="settings-panel"
              onKeyDown={(e) => {
                if (escapeKey(e)) closeSettings();
              }}
              className="fixed inset-0 z-10 overflow-y-auto bg-white md:static md:w-80 md:shrink-0 md:border-l md:border-neutral-200 dark:bg-neutral-950 md:dark:border-neutral-800"
            >
              <div className="flex justify-end p-2 md:hidden">
                <button
                  type="button"
                  // Opened on a phone, where the panel covers the screen: the keyboard's focus starts here.
                  autoFocus
                  onClick={closeSettings}
                  className="rounded px-2 py-1 hover:bg-neutral-200 dark:hover:bg-neutral-800"
                >
                  {t('closeSettings')}
                </button>
              </div>
              <SettingsPanel info={info} />
            </div>
          )}
        </div>
        <div inert={settingsCover} className="contents">
          <SimulationStatus />
          <Composer disabled={!configured} />
        </div>
        <ModelsDialog />
      </main>
      <RunInspector iterationActions={replayFromIteration} restoreFocus={focusComposer} />
      <AgentEditor info={info} />
    </div>
  );
}

/** An Escape nothing inside took (a dialog opened from it closes on its own Escape, an input method's candidate
 *  list on its own): it closes the panel it was pressed in. */
function escapeKey(e: KeyboardEvent): boolean {
  if (e.key !== 'Escape' || e.defaultPrevented || e.nativeEvent.isComposing) return false;
  if (e.target instanceof Element && e.target.closest('dialog, [role="dialog"]')) return false;
  e.preventDefault();
  return true;
}

/** The same, on a phone only: the menu covers the screen there (beside the thread elsewhere, it stays). */
function escapeOnPhone(e: KeyboardEvent): boolean {
  return matchMedia(PHONE).matches && escapeKey(e);
}

/** The welcome page of a conversation without turns, for its agent and tools. */
function NewConversation({ info }: { info: AppInfo }) {
  const t = useTranslations('agents');
  const settings = useChat((s) => s.settings);
  const agent = useChat((s) => s.draftAgent);
  const agentId = useChat((s) => (s.activeId ? s.settings?.agentId : s.draftAgent?.id));
  // A saved agent's (or one from code's) own tools, once the list of agents is in; never the conversation's.
  const saved = useAgents((s) => s.agents.find((a) => a.id === agentId));
  const hasDocuments = useHasDocuments();
  // The tools the first run will be offered: the document tools too once files are attached.
  const tools = agentId ? saved?.tools : settings ? documentToolsRule(settings, hasDocuments).tools : [];
  return (
    <>
      {agent && (
        <p data-draft-agent className="mx-auto mt-6 flex max-w-3xl items-center gap-2 px-4 font-semibold">
          <AgentAvatar avatar={agent.avatar} />
          {t('talkingTo', { name: agent.name })}
        </p>
      )}
      {agent?.description && (
        <p
          data-draft-agent-description
          className="mx-auto mt-1 max-w-3xl px-4 text-sm text-neutral-600 dark:text-neutral-400"
        >
          {agent.description}
        </p>
      )}
      <Welcome
        tools={tools}
        agent={(agentId ? saved?.kind : settings?.agent) ?? 'fncall'}
        descriptions={info.tools}
        suggestions={agent?.suggestions}
        savedAgent={!agentId ? undefined : isPluginAgentId(agentId) ? 'from-code' : 'saved'}
      />
    </>
  );
}

/** A stored run can be re-run from the iteration on screen (an imported one has no conversation to run in). */
function replayFromIteration(ctx: IterationActionContext) {
  if (ctx.imported) return null;
  return <ReplayFromIteration {...ctx} />;
}

function ReplayFromIteration({ run, iteration }: IterationActionContext) {
  const t = useTranslations('header');
  return (
    <details className="rounded-md border border-neutral-200 p-2 dark:border-neutral-800">
      <summary className="cursor-pointer text-sm font-medium">{t('replayFromIteration', { n: iteration.n })}</summary>
      <ReplayFromHere runId={run.runId} iteration={iteration.n} onStarted={() => useInspector.getState().close()} />
    </details>
  );
}
