'use client';
// The agent editor: a modal dialog over the page for a new, duplicated or saved agent. The server checks the
// definition (lib/chat/saved-agents.ts) and says what is wrong; nothing typed is lost when it refuses.
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { saveAgent } from '@/app/actions/agents';
import { isPluginAgentId, pluginAgentName } from '@/lib/chat/agent-ids';
import type { AppInfo } from '@/lib/chat/page';
import { toolStanding, type McpServerListing } from '@/lib/chat/tool-standing';
import { parseModelId } from '@/lib/models/ids';
import { AGENT_KIND_NAMES, FNCALL_MODES, SAVED_AGENT_KINDS, SPEAKER_SELECTIONS } from '@/lib/protocol/enums';
import type { AgentDefinition } from '@/lib/store/types';
import { isImageAvatar } from '../chat/agent-avatar';
import { focusComposer } from '../chat/composer-draft';
import { reachServer } from '../chat/reach-server';
import { useImageSource } from '../chat/answer-image';
import { useCodedText } from '../chat/server-text';
import { ToolStandingNote } from '../chat/tool-standing-note';
import { useIntegrationsStatus } from '../chat/use-integrations-status';
import { useGenerationProblemText } from '../chat/generation-problems';
import { generationInputBounds, generationProblems } from '@/lib/protocol/generation-settings';
import { ConfirmDialog } from '../confirm-dialog';
import { useModalDialog } from '../modal-dialog';
import { useConnectionName } from '../models/connection-name';
import { useModels } from '../models/models-store';
import { AgentDocuments } from './agent-documents';
import { refusalOf, useAgents, type AgentRefusal } from './agents-store';
import { FromCode } from './from-code';
import { useLeaveGuard } from './leave-guard';

const FIELD =
  'w-full rounded border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900';
const MAX_IMAGE_BYTES = 100_000;

function focusAgentsOrComposer(): void {
  const heading = document.getElementById('agents-heading');
  if (heading?.checkVisibility()) heading.focus();
  else focusComposer();
}

export function AgentEditor({ info }: { info: AppInfo }) {
  const t = useTranslations('agents');
  const editing = useAgents((s) => s.editing);
  // Closed, the focus goes back to the button that opened it; if that left the page meanwhile, to the Agents heading
  // (or, where the list is hidden, as in a phone's closed menu, the message box), never to the page itself.
  const dialog = useModalDialog(Boolean(editing), { restoreFocus: focusAgentsOrComposer });
  // Whether the form holds changes not saved: leaving then asks first (Escape, Cancel), so nothing typed is lost.
  // Asked in a dialog of the page's own (its buttons in the page's language), over the editor.
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  const leave = () => {
    if (dirty.current) return setAsking(true);
    useAgents.getState().edit(undefined);
  };
  return (
    <>
      <dialog
        ref={dialog}
        aria-label={t('editorTitle')}
        // Escape is handled here rather than by the browser: a dialog whose cancel was refused once closes at once on
        // the next Escape.
        onKeyDown={(e) => {
          if (e.key !== 'Escape' || e.defaultPrevented) return;
          e.preventDefault();
          leave();
        }}
        onCancel={(e) => {
          e.preventDefault();
          leave();
        }}
        onClose={() => useAgents.getState().edit(undefined)}
        className="m-auto w-[min(40rem,95vw)] rounded-lg border border-neutral-300 bg-white p-0 text-neutral-900 backdrop:bg-black/50 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
      >
        {editing && (
          <Form
            key={editing.id ?? 'new'}
            id={editing.id}
            initial={editing.definition}
            info={info}
            dirtyRef={dirty}
            onCancel={leave}
          />
        )}
      </dialog>
      <ConfirmDialog
        open={asking}
        title={t('discardTitle')}
        message={t('discardHelp')}
        confirm={t('discard')}
        cancel={t('keepEditing')}
        onAnswer={(discard) => {
          setAsking(false);
          if (discard) useAgents.getState().edit(undefined);
        }}
      />
    </>
  );
}

function Field({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <label className="block space-y-1 text-sm" data-invalid={error ? true : undefined}>
      <span className="font-medium">{label}</span>
      {children}
      {error && <span className="block text-xs text-red-700 dark:text-red-300">{error}</span>}
    </label>
  );
}

/** The MCP servers' tools, as the conversation settings offer them (the servers connect when first asked), and the
 *  servers (a tool of one not ready is not available now, not missing). */
function useMcpTools(): {
  tools: { server: string; name: string; description: string }[];
  servers: McpServerListing[] | undefined;
} {
  const status = useIntegrationsStatus();
  const servers = status?.mcp.servers;
  const tools = (servers ?? []).flatMap((s) =>
    s.tools.map((tool) => ({ server: s.name, name: tool.name, description: tool.description ?? '' })),
  );
  return { tools, servers };
}

/** The model picker of the editor: the models the header's picker offers (every model of every connection, the
 *  environment's OPENAI_MODEL first), or the server's default. Listed afresh each time the editor opens, as the
 *  header's picker does each time it opens: a listing that failed or had not come back (a server slow to list its
 *  models) left only the server's default here, with no second try. */
export function ModelSelect({ value, onChange }: { value?: string; onChange: (model: string | undefined) => void }) {
  const t = useTranslations('agents');
  const tModels = useTranslations('models');
  const connectionName = useConnectionName();
  const groups = useModels((s) => s.groups);
  useEffect(() => {
    void useModels.getState().refresh();
  }, []);
  const listed = (groups ?? []).some((g) => g.models.some((m) => m.id === value));
  return (
    <Field label={t('model')}>
      <select
        className={FIELD}
        value={value ?? ''}
        aria-busy={groups === undefined}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">{t('defaultModel')}</option>
        {value && !listed && <option value={value}>{parseModelId(value)?.name ?? value}</option>}
        {groups === undefined && <option disabled>{tModels('pickerLoading')}</option>}
        {(groups ?? [])
          .filter((g) => g.models.length)
          .map((g) => (
            <optgroup key={g.connectionId} label={connectionName(g.name, g.connectionId)}>
              {g.models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </optgroup>
          ))}
      </select>
    </Field>
  );
}

/** A member the agent list does not have: its box (to untick it), and why it cannot answer. */
function MissingMember({ id, ticked, onTick }: { id: string; ticked: boolean; onTick: (on: boolean) => void }) {
  const t = useTranslations('agents');
  const note = useId();
  const fromCode = isPluginAgentId(id);
  return (
    <div>
      <label className="flex items-center gap-2" data-member-missing={id}>
        <input type="checkbox" checked={ticked} aria-describedby={note} onChange={(e) => onTick(e.target.checked)} />
        {fromCode ? pluginAgentName(id) : t('memberUnknown')}
      </label>
      <p id={note} className="ml-6 text-xs break-words text-amber-800 dark:text-amber-300">
        {fromCode ? t('memberPluginGone') : t('memberGone')}
      </p>
    </div>
  );
}

function Form({
  id,
  initial,
  info,
  dirtyRef,
  onCancel,
}: {
  id?: string;
  initial: AgentDefinition;
  info: AppInfo;
  dirtyRef: RefObject<boolean>;
  onCancel: () => void;
}) {
  const t = useTranslations('agents');
  const tTools = useTranslations('toolStanding');
  const agents = useAgents((s) => s.agents);
  const listed = useAgents((s) => s.loaded);
  const [d, setD] = useState<AgentDefinition>(initial);
  const [suggestions, setSuggestions] = useState(initial.suggestions.join('\n'));
  const [temperature, setTemperature] = useState(
    initial.generateCfg.temperature === undefined ? '' : String(initial.generateCfg.temperature),
  );
  // `plain`: said as it is (a check of the page's own), not as the server's refusal.
  const [problem, setProblem] = useState<AgentRefusal & { plain?: boolean }>();
  const codedText = useCodedText('errors');
  const problemText = problem && codedText({ message: problem.error, code: problem.code, values: problem.values });
  const [saving, setSaving] = useState(false);
  // A new agent gets its id once saved (uploading a document saves it first).
  const [agentId, setAgentId] = useState(id);
  const { tools: mcpTools, servers: mcpServers } = useMcpTools();
  const avatarSource = useImageSource(d.avatar);
  // An image URL this page may not load (not the app's, not in IMAGE_HOSTS): said here, where it can be changed.
  const avatarNotShown =
    isImageAvatar(d.avatar) && !avatarSource.direct ? (avatarSource.url?.host ?? d.avatar) : undefined;
  const patch = (p: Partial<AgentDefinition>) => setD((cur) => ({ ...cur, ...p }));
  const holds = d.kind === 'router' || d.kind === 'groupchat';
  const others = agents.filter((a) => a.id !== agentId);
  // Members the list does not have (as opened, or still ticked): an agent from code whose plugin the server has not
  // loaded now, or (saved before deleting took agents out of their holders) one deleted. Shown, so they can be unticked.
  const missing = listed
    ? [...new Set([...initial.members, ...d.members])].filter((m) => !agents.some((a) => a.id === m))
    : [];
  const tickMember = (id: string, on: boolean) =>
    patch({ members: on ? [...d.members, id] : d.members.filter((m) => m !== id) });
  const fieldError = (name: string) =>
    problem?.field && (problem.field === name || problem.field.startsWith(`${name}.`)) ? problemText : undefined;

  const definition = (): AgentDefinition => {
    const generateCfg = { ...d.generateCfg };
    if (temperature.trim() === '') delete generateCfg.temperature;
    else generateCfg.temperature = Number(temperature);
    return {
      ...d,
      generateCfg,
      suggestions: suggestions
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  };

  // The definition as it was opened, to tell whether anything changed since.
  const [opened] = useState(() => JSON.stringify(definition()));
  const changed = JSON.stringify(definition()) !== opened;
  useEffect(() => {
    dirtyRef.current = changed;
  }, [dirtyRef, changed]);
  // Typed and not saved yet: leaving the page asks first.
  useLeaveGuard(changed);

  const { say } = useGenerationProblemText();
  const submit = async () => {
    const invalid = [...(form.current?.elements ?? [])].find(
      (el): el is HTMLInputElement =>
        el instanceof HTMLInputElement && !el.name.startsWith('generate') && !el.checkValidity(),
    );
    if (invalid) return invalid.reportValidity();
    // A generation setting out of its range is said here, in the page's words, with every one that is.
    const bad = generationProblems(definition().generateCfg);
    if (bad.length)
      return setProblem({ error: bad.map(say).join(' '), field: `generateCfg.${bad[0]!.key}`, plain: true });
    setSaving(true);
    const refused = await useAgents.getState().save(agentId, definition());
    setSaving(false);
    setProblem(refused);
  };

  // A refusal takes the focus to the field at fault (else to the message, at the top): the disabled Save button
  // dropped it on the page's body, and the field may be scrolled out of sight.
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!problem) return;
    const field = form.current?.querySelector<HTMLElement>('label[data-invalid] :is(input, select, textarea)');
    (field ?? alert.current)?.focus();
  }, [problem]);

  const ensureSaved = async (): Promise<string | undefined> => {
    if (agentId) return agentId;
    const result = await reachServer(() => saveAgent(undefined, definition()));
    if (!result.ok) {
      setProblem(refusalOf(result));
      return undefined;
    }
    setProblem(undefined);
    setAgentId(result.value.id);
    void useAgents.getState().refresh();
    return result.value.id;
  };
  const toolBox = (name: string) => (
    <input
      type="checkbox"
      checked={d.tools.includes(name)}
      onChange={(e) => patch({ tools: e.target.checked ? [...d.tools, name] : d.tools.filter((x) => x !== name) })}
    />
  );
  const known = new Set([...info.tools.map((x) => x.name), ...mcpTools.map((x) => x.name)]);
  // Ticked tools the lists above do not offer (as opened, or still ticked: unticking one keeps its row, and the
  // focus on it), each said with where it stands once the MCP servers are known.
  const unlisted = [...new Set([...initial.tools, ...d.tools])].filter((name) => !known.has(name));

  return (
    <form
      ref={form}
      method="dialog"
      // The generation settings are checked by the page (every bad one said, in its language); the other fields
      // by the browser, as before (submit).
      noValidate
      className="max-h-[85dvh] space-y-3 overflow-y-auto p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 className="text-base font-semibold">{t('editorTitle')}</h2>
      {problem && (
        <p
          ref={alert}
          role="alert"
          tabIndex={-1}
          className="rounded bg-red-50 px-2 py-1 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {problem.plain ? problem.error : t('saveFailed', { error: problemText ?? '' })}
        </p>
      )}
      <Field label={t('name')} error={fieldError('name')}>
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
            aria-describedby={avatarNotShown ? 'agent-avatar-not-shown' : undefined}
            onChange={(e) => patch({ avatar: e.target.value })}
          />
        </Field>
        {/* The browser's own file button speaks the browser's language, not the page's: a label of ours stands in. */}
        <div className="space-y-1 text-sm">
          <span id="agent-avatar-image-label" className="block font-medium">
            {t('avatarImage')}
          </span>
          <input
            id="agent-avatar-image"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-labelledby="agent-avatar-image-label"
            className="peer sr-only"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!file) return;
              if (file.size > MAX_IMAGE_BYTES) return setProblem({ error: t('avatarTooLarge'), plain: true });
              const reader = new FileReader();
              reader.onload = () => patch({ avatar: String(reader.result) });
              reader.readAsDataURL(file);
            }}
          />
          <label
            htmlFor="agent-avatar-image"
            className="inline-block cursor-pointer rounded-lg border border-neutral-300 px-3 py-2 hover:bg-neutral-100 peer-focus-visible:ring-2 peer-focus-visible:ring-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800"
          >
            {t('chooseImage')}
          </label>
        </div>
      </div>
      {avatarNotShown && (
        <p id="agent-avatar-not-shown" className="text-xs break-words text-amber-800 dark:text-amber-300">
          {t('avatarNotShown', { host: avatarNotShown })}
        </p>
      )}
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
                onChange={(e) => tickMember(a.id, e.target.checked)}
              />
              {a.name}
              {a.plugin && <FromCode file={a.plugin} />}
            </label>
          ))}
          {missing.map((m) => (
            <MissingMember key={m} id={m} ticked={d.members.includes(m)} onTick={(on) => tickMember(m, on)} />
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
              {toolBox(tool.name)}
              <code>{tool.name}</code>
              {tool.plugin && <FromCode file={tool.plugin} />}
            </label>
          ))}
          {mcpTools.map((tool) => (
            <label key={tool.name} className="flex items-center gap-2" title={tool.description}>
              {toolBox(tool.name)}
              <code>{tool.name}</code>
              <span className="text-xs text-neutral-600 dark:text-neutral-400">
                {t('mcpTool', { server: tool.server })}
              </span>
            </label>
          ))}
          {unlisted.map((name) => {
            const standing = mcpServers && toolStanding(name, info, mcpServers);
            return (
              <label key={name} className="col-span-2 flex items-start gap-2">
                <span className="mt-0.5 flex">{toolBox(name)}</span>
                <span className="min-w-0">
                  <code className="break-all">{name}</code>{' '}
                  {standing && standing.kind !== 'offered' && (
                    <ToolStandingNote standing={standing} name={name} fix={tTools('notHereAgent')} />
                  )}
                </span>
              </label>
            );
          })}
        </div>
        {fieldError('tools') && <p className="text-xs text-red-700 dark:text-red-300">{fieldError('tools')}</p>}
      </fieldset>
      {d.kind !== 'groupchat' && (
        <AgentDocuments
          documents={d.documents ?? []}
          onChange={(documents) => patch({ documents })}
          ensureSaved={ensureSaved}
        />
      )}
      {fieldError('documents') && <p className="text-xs text-red-700 dark:text-red-300">{fieldError('documents')}</p>}
      <ModelSelect value={d.model} onChange={(model) => patch({ model })} />
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
        <Field label={t('temperature')} error={fieldError('generateCfg')}>
          <input
            type="number"
            name="generateCfg.temperature"
            {...generationInputBounds('temperature')}
            aria-invalid={fieldError('generateCfg') ? true : undefined}
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
          onClick={onCancel}
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
