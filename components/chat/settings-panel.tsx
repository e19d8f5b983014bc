'use client';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { AppInfo } from '@/lib/chat/page';
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
import { useModels } from '../models/models-store';
import { definitionOf, useAgents } from '../agents/agents-store';
import { FromCode } from '../agents/from-code';
import { useChat } from './store';

const PARAMS = [
  { key: 'temperature', min: 0, max: 2, step: 0.1 },
  { key: 'top_p', min: 0, max: 1, step: 0.05 },
  { key: 'max_tokens', min: 1, max: 131072, step: 1 },
] as const;

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
              {CHAT_AGENT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`agents.${kind}`)}
                </option>
              ))}
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
          // An agent's tools the server does not list (an MCP server's) are shown too.
          ...(agent?.tools ?? [])
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
            <span>
              <code>{tool.name}</code> {tool.plugin && <FromCode file={tool.plugin} />}
              <span className="block text-neutral-600 dark:text-neutral-400">{describe(tool)}</span>
            </span>
          </label>
        ))}
        {info.tools.some((tool) => tool.name === 'code_interpreter') && <CodeBackendNote info={info.codeInterpreter} />}
      </fieldset>
      {/* An agent's documents, not this switch, decide its document tools. */}
      {!agent && <DocumentToolsSetting settings={settings} />}
      <McpServers />
      {PARAMS.map((p) => (
        <label key={p.key} className="flex items-center justify-between gap-2">
          <span className="font-medium">{t(p.key)}</span>
          <input
            type="number"
            className={`${field} w-28`}
            min={p.min}
            max={p.max}
            step={p.step}
            placeholder={agent?.generateCfg[p.key] !== undefined ? String(agent.generateCfg[p.key]) : t('default')}
            value={settings.generateCfg[p.key] ?? ''}
            onChange={(e) => {
              const generateCfg = { ...settings.generateCfg };
              const value = e.target.valueAsNumber;
              if (Number.isFinite(value)) generateCfg[p.key] = value;
              else delete generateCfg[p.key];
              void update({ generateCfg });
            }}
          />
        </label>
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
