'use client';
import type { AppInfo } from '@/lib/chat/page';
import type { ChatAgentKind, FncallMode } from '@/lib/protocol/enums';
import { CodeBackendNote } from './code-backend-note';
import { McpServers } from './mcp-servers';
import { useChat } from './store';

const PARAMS: { key: string; label: string; min: number; max: number; step: number }[] = [
  { key: 'temperature', label: 'Temperature', min: 0, max: 2, step: 0.1 },
  { key: 'top_p', label: 'Top p', min: 0, max: 1, step: 0.05 },
  { key: 'max_tokens', label: 'Max tokens', min: 1, max: 131072, step: 1 },
];

/** The agent, its tools, the function-call mode and model parameters of the open conversation. */
export function SettingsPanel({ info }: { info: AppInfo }) {
  const settings = useChat((s) => s.settings);
  const update = useChat((s) => s.updateSettings);
  if (!settings) return null;
  const field = 'rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900';
  return (
    <section aria-label="Settings" className="space-y-4 p-4 text-sm">
      <label className="flex flex-col gap-1">
        <span className="font-medium">Agent</span>
        <select
          className={field}
          value={settings.agent}
          onChange={(e) => void update({ agent: e.target.value as ChatAgentKind })}
        >
          <option value="fncall">FnCallAgent (function calling)</option>
          <option value="react">ReActChat (Thought / Action / Observation)</option>
          <option value="assistant">Assistant (searches the attached documents, then function calling)</option>
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">Function-call mode</span>
        <select
          className={field}
          value={settings.fncallMode}
          disabled={settings.agent === 'react'}
          onChange={(e) => void update({ fncallMode: e.target.value as FncallMode })}
        >
          <option value="native">native (the tools API)</option>
          <option value="nous">nous (&lt;tool_call&gt; tags)</option>
          <option value="qwen">qwen (✿FUNCTION✿ markers)</option>
        </select>
      </label>
      <fieldset className="space-y-1">
        <legend className="font-medium">Tools</legend>
        {info.tools.map((t) => (
          <label key={t.name} className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1"
              checked={settings.tools.includes(t.name)}
              onChange={(e) =>
                void update({
                  tools: e.target.checked ? [...settings.tools, t.name] : settings.tools.filter((x) => x !== t.name),
                })
              }
            />
            <span>
              <code>{t.name}</code>
              <span className="block text-neutral-600 dark:text-neutral-400">{t.description}</span>
            </span>
          </label>
        ))}
        {info.tools.some((t) => t.name === 'code_interpreter') && <CodeBackendNote info={info.codeInterpreter} />}
      </fieldset>
      <McpServers />
      {PARAMS.map((p) => (
        <label key={p.key} className="flex items-center justify-between gap-2">
          <span className="font-medium">{p.label}</span>
          <input
            type="number"
            className={`${field} w-28`}
            min={p.min}
            max={p.max}
            step={p.step}
            placeholder="default"
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
          <span className="font-medium">Pause before tools</span>
          <span className="block text-neutral-600 dark:text-neutral-400">
            Stop before each tool call to edit its arguments, run it, skip it, or supply the result.
          </span>
        </span>
      </label>
      <label className="flex flex-col gap-1">
        <span className="font-medium">System message</span>
        <textarea
          className={field}
          rows={3}
          value={settings.systemMessage}
          onChange={(e) => void update({ systemMessage: e.target.value })}
        />
      </label>
      <p className="text-neutral-600 dark:text-neutral-400">
        Model: <code>{info.model.name ?? 'server default'}</code>. Runs stop after {info.maxLlmCalls} model calls.
      </p>
    </section>
  );
}
