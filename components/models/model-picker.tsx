'use client';
// The header's model picker: every model of every connection, grouped by connection, searchable. The choice is the
// open conversation's (stored with it; a new chat keeps it until its first message) and holds from the next message;
// a conversation with a saved agent shows the agent's model until one is picked.
import { useTranslations } from 'next-intl';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { parseModelId } from '@/lib/models/ids';
import type { ModelOption } from '@/lib/models/service';
import { useAgents } from '../agents/agents-store';
import { useChat } from '../chat/store';
import { useConnectionName } from './connection-name';
import { useModels } from './models-store';

export function ModelPicker() {
  const t = useTranslations('models');
  const connectionName = useConnectionName();
  const groups = useModels((s) => s.groups);
  // A conversation with a saved agent shows the agent's model until the picker names another (which then wins).
  const agentId = useChat((s) => (s.activeId ? s.settings?.agentId : s.draftAgent?.id));
  const agentModel = useAgents((s) => s.agents.find((a) => a.id === agentId)?.model);
  const chosen = useChat((s) => s.settings?.model) ?? agentModel;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // The option the arrow keys are on (the search box keeps the focus: aria-activedescendant points at it).
  const [active, setActive] = useState<string>();
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const currentId = useId();
  const optionId = (id: string) => `${listId}-${id.replace(/[^\w-]/g, '_')}`;

  useEffect(() => {
    if (!open) return;
    void useModels.getState().refresh();
    const away = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (groups ?? [])
      .map((g) => ({
        ...g,
        models: q
          ? g.models.filter((m) => m.name.toLowerCase().includes(q) || g.name.toLowerCase().includes(q))
          : g.models,
      }))
      .filter((g) => g.models.length || (!q && g.problem));
  }, [groups, query]);
  const options = useMemo(() => shown.flatMap((g) => g.models), [shown]);

  // No choice yet: the server's default, which is the first model listed (the environment's OPENAI_MODEL first).
  const fallback = groups?.find((g) => g.models.length)?.models[0];
  const selected = chosen ?? fallback?.id;
  // The active option is one still shown: the one the keys left, else the current model, else the first.
  const activeOption = options.find((m) => m.id === active) ?? options.find((m) => m.id === selected) ?? options[0];

  /** Closes the list; `focusTrigger` when the focus was in it (a pick, Escape), so it does not drop to the page. */
  const close = (focusTrigger: boolean) => {
    setOpen(false);
    setQuery('');
    setActive(undefined);
    if (focusTrigger) trigger.current?.focus();
  };
  const pick = (m: ModelOption) => {
    useModels.getState().pick(m.id);
    close(true);
  };
  const move = (by: number | 'first' | 'last') => {
    if (!options.length) return;
    const at = activeOption ? options.indexOf(activeOption) : -1;
    const next = by === 'first' ? 0 : by === 'last' ? options.length - 1 : (at + by + options.length) % options.length;
    const option = options[next]!;
    setActive(option.id);
    document.getElementById(optionId(option.id))?.scrollIntoView({ block: 'nearest' });
  };
  // Until the first listing is back, the default is not known yet: say so, rather than "Default model".
  const loading = !chosen && groups === undefined;
  const current = selected
    ? (parseModelId(selected)?.name ?? selected)
    : loading
      ? t('pickerLoading')
      : t('defaultModel');

  return (
    <div
      ref={box}
      className="relative min-w-0"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          close(true);
        }
      }}
      // Tab (or a click) out of the list closes it.
      onBlur={(e) => {
        if (open && !box.current?.contains(e.relatedTarget as Node | null)) close(false);
      }}
    >
      <button
        ref={trigger}
        type="button"
        role="combobox"
        aria-label={t('picker')}
        aria-describedby={currentId}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-busy={loading}
        onClick={() => (open ? close(true) : setOpen(true))}
        className="flex max-w-[min(14rem,100%)] min-w-0 items-center gap-1 rounded-lg border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        <span
          id={currentId}
          className={`truncate font-mono ${loading ? 'text-neutral-600 dark:text-neutral-400' : ''}`}
        >
          {current}
        </span>
        <svg aria-hidden="true" viewBox="0 0 10 6" className="h-2 w-2.5 shrink-0 fill-current">
          <path d="M0 0h10L5 6z" />
        </svg>
      </button>
      {open && (
        // On a phone the list spans the screen under the header (anchored to the button it would leave the screen).
        <div
          // A press anywhere in it (an option, the scroll bar) leaves the focus in the search box, so it stays open.
          onMouseDown={(e) => {
            if (!(e.target instanceof HTMLInputElement)) e.preventDefault();
          }}
          className="z-30 rounded-lg border border-neutral-300 bg-white p-2 shadow-lg max-md:fixed max-md:inset-x-2 max-md:top-24 md:absolute md:right-0 md:mt-1 md:w-80 dark:border-neutral-700 dark:bg-neutral-950"
        >
          <input
            type="search"
            autoFocus
            aria-label={t('search')}
            aria-controls={listId}
            aria-activedescendant={activeOption ? optionId(activeOption.id) : undefined}
            placeholder={t('search')}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setActive(undefined);
            }}
            onKeyDown={(e) => {
              const keys: Record<string, () => void> = {
                ArrowDown: () => move(1),
                ArrowUp: () => move(-1),
                Home: () => move('first'),
                End: () => move('last'),
                Enter: () => activeOption && pick(activeOption),
              };
              const act = keys[e.key];
              // Home and End move in the text while there is some.
              if (!act || ((e.key === 'Home' || e.key === 'End') && query)) return;
              e.preventDefault();
              act();
            }}
            className="mb-2 w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
          />
          <div
            id={listId}
            role="listbox"
            aria-label={t('models')}
            className="max-h-[min(20rem,60dvh)] overflow-y-auto text-sm"
          >
            {groups === undefined && <p className="px-2 py-1">{t('loading')}</p>}
            {groups !== undefined && shown.length === 0 && <p className="px-2 py-1">{t('noneToPick')}</p>}
            {shown.map((g) => (
              <div
                key={g.connectionId}
                role="group"
                aria-label={connectionName(g.name, g.connectionId)}
                className="mb-2"
              >
                <div aria-hidden="true" className="px-2 text-xs font-semibold text-neutral-600 dark:text-neutral-400">
                  {connectionName(g.name, g.connectionId)}
                </div>
                {g.problem && <p className="px-2 text-xs text-red-700 dark:text-red-300">{g.problem}</p>}
                {g.models.map((m) => (
                  <div
                    key={m.id}
                    id={optionId(m.id)}
                    role="option"
                    aria-selected={m.id === selected}
                    data-active={m.id === activeOption?.id || undefined}
                    onClick={() => pick(m)}
                    onMouseMove={() => m.id !== activeOption?.id && setActive(m.id)}
                    className="flex cursor-pointer items-center justify-between gap-2 rounded px-2 py-1 aria-selected:font-semibold data-active:bg-neutral-100 data-active:ring-1 data-active:ring-blue-600 dark:data-active:bg-neutral-800"
                  >
                    <span className="truncate font-mono">{m.name}</span>
                    <span className="shrink-0 text-xs text-neutral-600 dark:text-neutral-400">
                      {m.capabilities.vision.value && <span title={t('caps.vision')}>{t('caps.visionShort')} </span>}
                      {!m.capabilities.tools.value && (
                        <span title={t('caps.textTools')}>{t('caps.textToolsShort')}</span>
                      )}
                    </span>
                  </div>
                ))}
              </div>
            ))}
          </div>
          <button
            type="button"
            onClick={() => {
              // The focus goes to the picker first: the dialog gives it back there when it closes.
              close(true);
              useModels.getState().openDialog();
            }}
            className="mt-1 w-full rounded px-2 py-1 text-left text-sm text-blue-700 hover:bg-neutral-100 dark:text-blue-300 dark:hover:bg-neutral-800"
          >
            {t('manage')}
          </button>
        </div>
      )}
    </div>
  );
}
