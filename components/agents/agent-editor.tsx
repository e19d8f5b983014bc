'use client';
// The agent editor: a modal dialog over the page for a new, duplicated or saved agent. The server checks the
// definition (lib/chat/saved-agents.ts) and says what is wrong; nothing typed is lost when it refuses.
import { useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import type { AppInfo } from '@/lib/chat/page';
import { AGENT_KIND_NAMES, FNCALL_MODES, SAVED_AGENT_KINDS, SPEAKER_SELECTIONS } from '@/lib/protocol/enums';
import type { AgentDefinition } from '@/lib/store/types';
import { useModalDialog } from '../modal-dialog';
import { useAgents } from './agents-store';

const FIELD =
  'w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900';
const MAX_IMAGE_BYTES = 100_000;

export function AgentEditor({ info }: { info: AppInfo }) {
  const t = useTranslations('agents');
  const editing = useAgents((s) => s.editing);
  const dialog = useModalDialog(Boolean(editing));
  return (
    <dialog
      ref={dialog}
      aria-label={t('editorTitle')}
      onClose={() => useAgents.getState().edit(undefined)}
      className="m-auto w-[min(40rem,95vw)] rounded-lg border border-neutral-300 bg-white p-0 text-neutral-900 backdrop:bg-black/50 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
    >
      {editing && <Form key={editing.id ?? 'new'} id={editing.id} initial={editing.definition} info={info} />}
    </dialog>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="block space-y-1 text-sm">
      <span className="font-medium">{label}</span>
      {children}
    </label>
  );
}

function Form({ id, initial, info }: { id?: string; initial: AgentDefinition; info: AppInfo }) {
  const t = useTranslations('agents');
  const agents = useAgents((s) => s.agents);
  const [d, setD] = useState<AgentDefinition>(initial);
  const [suggestions, setSuggestions] = useState(initial.suggestions.join('\n'));
  const [temperature, setTemperature] = useState(
    initial.generateCfg.temperature === undefined ? '' : String(initial.generateCfg.temperature),
  );
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const patch = (p: Partial<AgentDefinition>) => setD((cur) => ({ ...cur, ...p }));
  const holds = d.kind === 'router' || d.kind === 'groupchat';
  const others = agents.filter((a) => a.id !== id);

  const submit = async () => {
    setSaving(true);
    const generateCfg = { ...d.generateCfg };
    if (temperature.trim() === '') delete generateCfg.temperature;
    else generateCfg.temperature = Number(temperature);
    const definition: AgentDefinition = {
      ...d,
      generateCfg,
      suggestions: suggestions
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    };
    const error = await useAgents.getState().save(id, definition);
    setSaving(false);
    setProblem(error && t('saveFailed', { error }));
  };

  return (
    <form
      method="dialog"
      className="max-h-[85dvh] space-y-3 overflow-y-auto p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 className="text-base font-semibold">{t('editorTitle')}</h2>
      {problem && (
        <p role="alert" className="rounded bg-red-50 px-2 py-1 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
          {problem}
        </p>
      )}
      <Field label={t('name')}>
        <input className={FIELD} value={d.name} maxLength={60} onChange={(e) => patch({ name: e.target.value })} />
      </Field>
      <Field label={t('description')}>
        <input className={FIELD} value={d.description} onChange={(e) => patch({ description: e.target.value })} />
      </Field>
      <div className="flex flex-wrap items-end gap-3">
        <Field label={t('avatar')}>
          <input
            className={`${FIELD} w-24`}
            value={d.avatar.startsWith('data:') ? '' : d.avatar}
            onChange={(e) => patch({ avatar: e.target.value })}
          />
        </Field>
        <Field label={t('avatarImage')}>
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="text-sm"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              if (file.size > MAX_IMAGE_BYTES) return setProblem(t('avatarTooLarge'));
              const reader = new FileReader();
              reader.onload = () => patch({ avatar: String(reader.result) });
              reader.readAsDataURL(file);
            }}
          />
        </Field>
      </div>
      <Field label={t('kind')}>
        <select
          className={FIELD}
          value={d.kind}
          onChange={(e) => patch({ kind: e.target.value as AgentDefinition['kind'] })}
        >
          {SAVED_AGENT_KINDS.map((k) => (
            <option key={k} value={k}>
              {AGENT_KIND_NAMES[k]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('systemMessage')}>
        <textarea
          className={FIELD}
          rows={4}
          value={d.systemMessage}
          onChange={(e) => patch({ systemMessage: e.target.value })}
        />
      </Field>
      {holds && (
        <fieldset className="space-y-1 text-sm">
          <legend className="font-medium">{t('members')}</legend>
          {others.length === 0 && <p className="text-neutral-600 dark:text-neutral-400">{t('noMembers')}</p>}
          {others.map((a) => (
            <label key={a.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={d.members.includes(a.id)}
                onChange={(e) =>
                  patch({ members: e.target.checked ? [...d.members, a.id] : d.members.filter((m) => m !== a.id) })
                }
              />
              {a.name}
            </label>
          ))}
        </fieldset>
      )}
      {d.kind === 'groupchat' && (
        <div className="flex flex-wrap gap-3">
          <Field label={t('selection')}>
            <select
              className={FIELD}
              value={d.selection ?? 'auto'}
              onChange={(e) => patch({ selection: e.target.value as AgentDefinition['selection'] })}
            >
              {SPEAKER_SELECTIONS.map((s) => (
                <option key={s} value={s}>
                  {t(`selections.${s}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('maxRound')}>
            <input
              type="number"
              min={1}
              max={20}
              className={`${FIELD} w-24`}
              value={d.maxRound ?? 3}
              onChange={(e) => patch({ maxRound: Number(e.target.value) })}
            />
          </Field>
        </div>
      )}
      <fieldset className="space-y-1 text-sm">
        <legend className="font-medium">{t('tools')}</legend>
        <div className="grid grid-cols-2 gap-1">
          {info.tools.map((tool) => (
            <label key={tool.name} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={d.tools.includes(tool.name)}
                onChange={(e) =>
                  patch({ tools: e.target.checked ? [...d.tools, tool.name] : d.tools.filter((x) => x !== tool.name) })
                }
              />
              <code>{tool.name}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Field label={t('fncallMode')}>
          <select
            className={FIELD}
            value={d.fncallMode ?? ''}
            onChange={(e) => patch({ fncallMode: (e.target.value || undefined) as AgentDefinition['fncallMode'] })}
          >
            <option value="">{t('serverMode')}</option>
            {FNCALL_MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('temperature')}>
          <input
            type="number"
            step="0.1"
            min={0}
            max={2}
            className={`${FIELD} w-28`}
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
          />
        </Field>
      </div>
      <Field label={t('suggestions')}>
        <textarea className={FIELD} rows={3} value={suggestions} onChange={(e) => setSuggestions(e.target.value)} />
      </Field>
      <div className="flex justify-end gap-2">
        <button
          type="button"
          className="rounded border border-neutral-300 px-3 py-1 text-sm dark:border-neutral-700"
          onClick={() => useAgents.getState().edit(undefined)}
        >
          {t('cancel')}
        </button>
        <button
          type="submit"
          disabled={saving}
          className="rounded bg-blue-700 px-3 py-1 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {t('save')}
        </button>
      </div>
    </form>
  );
}
