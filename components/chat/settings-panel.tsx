'use client';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import type { AppInfo } from '@/lib/chat/page';
import type { IntegrationsStatus } from '@/lib/server/integrations';
import {
  AGENT_KIND_NAMES,
  CHAT_AGENT_KINDS,
  FNCALL_MODES,
  type ChatAgentKind,
  type FncallMode,
} from '@/lib/protocol/enums';
import { LANGS } from '@/lib/protocol/message';
import type { ConversationSettings } from '@/lib/store/types';
import { CodeBackendNote } from './code-backend-note';
import { DocumentToolsSetting } from './document-tools-setting';
import { McpServers } from './mcp-servers';
import { ToolStandingNote } from './tool-standing-note';
import { useIntegrationsStatus } from './use-integrations-status';
import { toolStanding } from '@/lib/chat/tool-standing';
import { useModels } from '../models/models-store';
import { definitionOf, useAgents } from '../agents/agents-store';
import { FromCode } from '../agents/from-code';
import { useChat } from './store';
import { generationInputBounds, generationProblem, type RangedSetting } from '@/lib/protocol/generation-settings';
import { useGenerationProblemText } from './generation-problems';

const PARAMS = ['temperature', 'top_p', 'max_tokens'] as const satisfies readonly RangedSetting[];

const AGENT_LANGS = ['auto', ...LANGS] as const;
/** Kinds that never offer tools through function calling (ReAct text, TIR's code blocks, the writing steps, the
 *  doc-QA agents' reading and answering). */
const TEXT_ONLY_KINDS: readonly ChatAgentKind[] = ['react', 'tir', 'article', 'basicdocqa', 'paralleldocqa'];

/** Whether "Advanced" was left open: the panel is drawn again (a language change, a toggle) as it was. */
let advancedShown = false;

/** The agent, its tools, the function-call mode and model parameters of the open conversation. In a conversation with
 *  a saved agent, what the agent defines (its kind, system message, tools, and its call format when it has one) is
 *  shown as the agent has it, read-only (the agent's editor changes it); the model parameters set here override the
 *  agent's for this conversation, and the switches below them apply as in any conversation. */
export function SettingsPanel({ info }: { info: AppInfo }) {
  const t = useTranslations('settings');
  const tTools = useTranslations('tools');
  const settings = useChat((s) => s.settings);
  const update = useChat((s) => s.updateSettings);
  const agentId = useChat((s) => (s.activeId ? s.settings?.agentId : s.draftAgent?.id));
  const saved = useAgents((s) => s.agents.find((a) => a.id === agentId));
  const [advancedOpen, setAdvancedOpen] = useState(advancedShown);
  const activeId = useChat((s) => s.activeId);
  const status = useIntegrationsStatus();
  const tStanding = useTranslations('toolStanding');
  const unlisted = useUnlistedTools(info, status, agentId ? undefined : settings?.tools, activeId ?? 'new');
  if (!settings) return null;
  // In a saved agent's conversation: the agent's own values (none while the list of agents is loading).
  const agent = agentId
    ? {
        kind: saved?.kind,
        systemMessage: saved?.systemMessage ?? '',
        tools: saved?.tools ?? [],
        fncallMode: saved?.fncallMode,
        generateCfg: saved?.generateCfg ?? {},
      }
    : undefined;
  const field = 'rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900';
  // Builtin tools are described in the page's language; others (custom tools) as they describe themselves.
  const describe = (tool: { name: string; description: string }) => {
    const key = `descriptions.${tool.name}` as Parameters<typeof tTools>[0];
    return tTools.has(key) ? tTools(key) : tool.description;
  };
  // A tool nothing here offers now says where it stands instead, and what to do (where it is unticked).
  const aboutTool = (tool: { name: string; description: string }) => {
    const standing = status && toolStanding(tool.name, info, status.mcp.servers);
    if (!standing || standing.kind === 'offered')
      return <span className="block text-neutral-600 dark:text-neutral-400">{describe(tool)}</span>;
    const fix = !agent ? 'notHereConversation' : saved?.plugin ? 'notHereCodeAgent' : 'notHereSavedAgent';
    return <ToolStandingNote standing={standing} name={tool.name} fix={tStanding(fix)} />;
  };
  return (
    <section aria-label={t('title')} className="space-y-4 p-4 text-sm">
      {agentId && (
        <div
          role="note"
          className="space-y-2 rounded-md bg-blue-50 px-3 py-2 text-blue-950 dark:bg-blue-950 dark:text-blue-100"
        >
          <p>{t('savedAgent', { name: saved?.name ?? agentId })}</p>
          {saved && !saved.plugin && (
            <button
              type="button"
              onClick={() => useAgents.getState().edit({ id: saved.id, definition: definitionOf(saved) })}
              className="rounded border border-blue-300 px-2 py-1 hover:bg-blue-100 dark:border-blue-800 dark:hover:bg-blue-900"
            >
              {t('editAgent')}
            </button>
          )}
        </div>
      )}
      {/* How the agent is run: most people never change these. */}
      <details
        open={advancedOpen}
        onToggle={(e) => {
          advancedShown = e.currentTarget.open;
          setAdvancedOpen(advancedShown);
        }}
        className="space-y-3 rounded-md border border-neutral-200 px-3 py-2 dark:border-neutral-800"
      >
        <summary className="cursor-pointer font-medium">{t('advanced')}</summary>
        <label className="flex flex-col gap-1">
          <span className="font-medium">{t('agent')}</span>
          {agent ? (
            <select className={field} value={agent.kind ?? ''} disabled>
              <option value={agent.kind ?? ''}>
                {agent.kind &&
                  ((CHAT_AGENT_KINDS as readonly string[]).includes(agent.kind)
                    ? t(`agents.${agent.kind as ChatAgentKind}`)
                    : AGENT_KIND_NAMES[agent.kind])}
              </option>
            </select>
          ) : (
            <select
              className={field}
              value={settings.agent}
              onChange={(e) => void update({ agent: e.target.value as ChatAgentKind })}
            >
              {CHAT_AGENT_KINDS.map((kind) => {
                // TIRMathAgent runs python_executor: not offered when the admin has not enabled code for users.
                const gated = kind === 'tir' && !info.tools.some((tool) => tool.name === 'python_executor');
                return (
                  <option key={kind} value={kind} disabled={gated && settings.agent !== kind}>
                    {gated ? t('agentNeedsCode', { agent: t(`agents.${kind}`) }) : t(`agents.${kind}`)}
                  </option>
                );
              })}
            </select>
          )}
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">{t('fncallMode')}</span>
          <select
            className={field}
            value={agent?.fncallMode ?? settings.fncallMode}
            disabled={
              agent
                ? Boolean(agent.fncallMode) || TEXT_ONLY_KINDS.includes(agent.kind as ChatAgentKind)
                : TEXT_ONLY_KINDS.includes(settings.agent)
            }
            onChange={(e) => void update({ fncallMode: e.target.value as FncallMode })}
          >
            {FNCALL_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`fncallModes.${mode}`, { tag: '<tool_call>' })}
              </option>
            ))}
          </select>
        </label>
        <div className="flex flex-col gap-1">
          <label htmlFor="settings-agent-lang" className="font-medium">
            {t('agentLang')}
          </label>
          <select
            id="settings-agent-lang"
            aria-describedby="settings-agent-lang-help"
            className={field}
            value={settings.lang ?? 'auto'}
            onChange={(e) => void update({ lang: e.target.value as NonNullable<ConversationSettings['lang']> })}
          >
            {AGENT_LANGS.map((lang) => (
              <option key={lang} value={lang}>
                {t(`agentLangs.${lang}`)}
              </option>
            ))}
          </select>
          <span id="settings-agent-lang-help" className="text-neutral-600 dark:text-neutral-400">
            {t('agentLangHelp')}
          </span>
        </div>
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-1"
            checked={Boolean(settings.recordRawStream)}
            onChange={(e) => void update({ recordRawStream: e.target.checked })}
          />
          <span>
            <span className="font-medium">{t('recordRawStream')}</span>
            <span className="block text-neutral-600 dark:text-neutral-400">{t('recordRawStreamHelp')}</span>
          </span>
        </label>
      </details>
      <fieldset className="space-y-1">
        <legend className="font-medium">{t('tools')}</legend>
        {[
          ...info.tools,
          // An agent's tools the server does not list (an MCP server's, one not on this server) are shown too, and
          // so are the conversation's own that nothing here offers now (saved before a plugin was removed): ticked,
          // to untick.
          ...[...(agent?.tools ?? []), ...unlisted]
            .filter((name) => !info.tools.some((tool) => tool.name === name))
            .map((name) => ({ name, description: '', plugin: undefined as string | undefined })),
        ].map((tool) => (
          <label key={tool.name} className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1"
              disabled={Boolean(agent)}
              checked={(agent?.tools ?? settings.tools).includes(tool.name)}
              onChange={(e) =>
                void update({
                  tools: e.target.checked
                    ? [...settings.tools, tool.name]
                    : settings.tools.filter((x) => x !== tool.name),
                })
              }
            />
            <span className="min-w-0">
              <code className="break-all">{tool.name}</code> {tool.plugin && <FromCode file={tool.plugin} />}
              {aboutTool(tool)}
            </span>
          </label>
        ))}
        {info.tools.some((tool) => tool.name === 'code_interpreter') && <CodeBackendNote info={info.codeInterpreter} />}
      </fieldset>
      {/* An agent's documents, not this switch, decide its document tools. */}
      {!agent && <DocumentToolsSetting settings={settings} />}
      <McpServers status={status} />
      {PARAMS.map((key) => (
        <GenerationSetting
          // Another conversation starts from its own values, not from what was typed here.
          key={`${activeId ?? 'new'}/${key}`}
          name={key}
          label={t(key)}
          className={`${field} w-28`}
          placeholder={agent?.generateCfg[key] !== undefined ? String(agent.generateCfg[key]) : t('default')}
          value={settings.generateCfg[key]}
          onChange={(value) => {
            const generateCfg = { ...settings.generateCfg };
            if (value === undefined) delete generateCfg[key];
            else generateCfg[key] = value;
            void update({ generateCfg });
          }}
        />
      ))}
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1"
          checked={settings.pauseBeforeTools}
          onChange={(e) => void update({ pauseBeforeTools: e.target.checked })}
        />
        <span>
          <span className="font-medium">{t('pauseBeforeTools')}</span>
          <span className="block text-neutral-600 dark:text-neutral-400">{t('pauseHelp')}</span>
        </span>
      </label>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1"
          checked={settings.toolImages ?? false}
          onChange={(e) => void update({ toolImages: e.target.checked })}
        />
        <span>
          <span className="font-medium">{t('toolImages')}</span>
          <span className="block text-neutral-600 dark:text-neutral-400">{t('toolImagesHelp')}</span>
        </span>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">{t('systemMessage')}</span>
        {agent ? (
          <textarea className={field} rows={3} value={agent.systemMessage} readOnly />
        ) : (
          <textarea
            className={field}
            rows={3}
            value={settings.systemMessage}
            onChange={(e) => void update({ systemMessage: e.target.value })}
          />
        )}
      </label>
      <button
        type="button"
        onClick={() => useModels.getState().openDialog()}
        className="rounded border border-neutral-300 px-2 py-1 hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        {t('manageModels')}
      </button>
      <p className="text-neutral-600 dark:text-neutral-400">{t('limit', { limit: info.maxLlmCalls })}</p>
    </section>
  );
}

/** One generation setting's number input, with its range's min, max and step (lib/protocol/generation-settings.ts).
 *  A value out of the range is not saved: it stays as typed, marked invalid, with what is wrong in the page's words
 *  under it, until it is changed. An empty field goes back to the default. */
function GenerationSetting({
  name,
  label,
  className,
  placeholder,
  value,
  onChange,
}: {
  name: RangedSetting;
  label: string;
  className: string;
  placeholder: string;
  value?: number;
  onChange: (value: number | undefined) => void;
}) {
  const { say } = useGenerationProblemText();
  const [typed, setTyped] = useState<{ text: string; problem: string }>();
  const messageId = useId();
  return (
    <div>
      <label className="flex items-center justify-between gap-2">
        <span className="font-medium">{label}</span>
        <input
          type="number"
          name={name}
          className={className}
          {...generationInputBounds(name)}
          placeholder={placeholder}
          value={typed?.text ?? value ?? ''}
          aria-invalid={typed ? true : undefined}
          aria-describedby={typed ? messageId : undefined}
          onChange={(e) => {
            const number = e.target.valueAsNumber;
            const problem = Number.isFinite(number) ? generationProblem(name, number) : undefined;
            if (problem) return setTyped({ text: e.target.value, problem: say(problem) });
            setTyped(undefined);
            onChange(Number.isFinite(number) ? number : undefined);
          }}
        />
      </label>
      {typed && (
        <p id={messageId} role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
          {typed.problem}
        </p>
      )}
    </div>
  );
}

/** The conversation's own tools (`tools`; undefined with a saved agent) that nothing here offers now: not among the
 *  server's tools nor a ready MCP server's (a plugin removed since, web_search without its provider). Once shown, a
 *  tool stays for as long as the conversation is open, so that unticking it keeps its row and the focus on it. */
function useUnlistedTools(
  info: AppInfo,
  status: IntegrationsStatus | null,
  tools: readonly string[] | undefined,
  conversation: string,
): string[] {
  const [seen, setSeen] = useState<{ conversation: string; names: readonly string[] }>({ conversation, names: [] });
  // Known once the MCP servers are: until then an MCP server's tool would read as missing.
  const now = status
    ? (tools ?? []).filter((name) => toolStanding(name, info, status.mcp.servers).kind !== 'offered')
    : [];
  const before = seen.conversation === conversation ? seen.names : [];
  const names = [...new Set([...before, ...now])];
  if (seen.conversation !== conversation || names.length !== before.length) setSeen({ conversation, names });
  return status ? names.filter((name) => toolStanding(name, info, status.mcp.servers).kind !== 'offered') : [];
}
