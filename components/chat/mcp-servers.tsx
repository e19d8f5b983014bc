'use client';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { integrationsStatus, readMcpConfigText, saveMcpConfigText } from '@/app/actions/integrations';
import type { ServerStatus } from '@/lib/mcp';
import type { IntegrationsStatus } from '@/lib/server/integrations';
import { useCodedText, type CodedText } from './server-text';
import { useChat } from './store';

const POLL_MS = 1000;

function ConfigEditor({
  onSaved,
  passwordRequired,
}: {
  onSaved: (status: IntegrationsStatus) => void;
  passwordRequired: boolean;
}) {
  const t = useTranslations('mcp');
  const coded = useCodedText('errors');
  const [text, setText] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<CodedText | null>(null);
  const error = problem && coded(problem);
  const setError = (message: string | null, code?: CodedText['code']) =>
    setProblem(message === null ? null : { message, code });
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const id = useId();
  useEffect(() => {
    void readMcpConfigText().then((r) => (r.ok ? setText(r.text) : setError(r.error, r.code)));
  }, []);
  if (text === null) return error ? <p role="alert">{error}</p> : null;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="font-medium">
        {t('editor')}
      </label>
      <textarea
        id={id}
        className="w-full rounded border border-neutral-300 bg-white px-2 py-1 font-mono text-xs dark:border-neutral-700 dark:bg-neutral-900"
        rows={8}
        spellCheck={false}
        value={text}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setSaved(false);
        }}
      />
      {error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {passwordRequired && (
        <label className="flex flex-col gap-1 text-xs">
          {t('password')}
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="rounded border border-neutral-300 bg-white px-2 py-1 dark:border-neutral-700 dark:bg-neutral-900"
          />
        </label>
      )}
      <button
        type="button"
        disabled={saving}
        className="rounded border border-neutral-300 px-2 py-1 dark:border-neutral-700"
        onClick={async () => {
          setSaving(true);
          const r = await saveMcpConfigText(text, passwordRequired ? password : undefined);
          setSaving(false);
          if (r.ok) {
            setError(null);
            setSaved(true);
            onSaved(r.status);
          } else setError(r.error, r.code);
        }}
      >
        {saving ? t('saving') : t('save')}
      </button>
      {saved && <span className="ml-2 text-xs">{t('saved')}</span>}
    </div>
  );
}

/** MCP servers with their state and tools (on/off for this conversation), the config file editor, web tools. */
export function McpServers() {
  const t = useTranslations('mcp');
  const settings = useChat((s) => s.settings);
  const update = useChat((s) => s.updateSettings);
  const [status, setStatus] = useState<IntegrationsStatus | null>(null);

  useEffect(() => {
    void integrationsStatus().then(setStatus);
  }, []);
  const connecting = status?.mcp.busy || status?.mcp.servers.some((s) => s.state.status === 'connecting');
  useEffect(() => {
    if (!connecting) return;
    const timer = setInterval(() => void integrationsStatus().then(setStatus), POLL_MS);
    return () => clearInterval(timer);
  }, [connecting]);

  if (!settings || !status) return null;
  const toggle = (name: string, on: boolean) =>
    void update({ tools: on ? [...settings.tools, name] : settings.tools.filter((x) => x !== name) });
  const code = (chunks: ReactNode) => <code>{chunks}</code>;
  const stateText = (server: ServerStatus): string => {
    const s = server.state;
    if (s.status === 'connecting') return t('connecting');
    if (s.status === 'ready') return t('ready', { n: server.tools.length });
    if (s.status === 'failed') return t('failed', { error: s.error });
    return t('closed');
  };

  return (
    <>
      <section aria-label={t('title')} className="space-y-2">
        <h3 className="font-medium">{t('title')}</h3>
        {status.mcp.configError && (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {status.mcp.configError}
          </p>
        )}
        {status.mcp.servers.length === 0 && status.mcp.busy && <p>{t('reading')}</p>}
        {status.mcp.servers.length === 0 && !status.mcp.busy && !status.mcp.configError && (
          <p className="text-neutral-600 dark:text-neutral-400">
            {t.rich('none', { path: status.mcp.configPath, code })}
          </p>
        )}
        <ul className="space-y-2">
          {status.mcp.servers.map((server) => (
            <li key={server.name} aria-label={t('server', { name: server.name })}>
              <div>
                <code>{server.name}</code> <span className="text-xs">({server.transport})</span>:{' '}
                <span className={server.state.status === 'failed' ? 'text-red-700 dark:text-red-300' : ''}>
                  {stateText(server)}
                </span>
              </div>
              {server.tools.map((t) => (
                <label key={t.name} className="ml-3 flex items-start gap-2">
                  <input
                    type="checkbox"
                    className="mt-1"
                    checked={settings.tools.includes(t.name)}
                    onChange={(e) => toggle(t.name, e.target.checked)}
                  />
                  <span>
                    <code>{t.name}</code>
                    <span className="block text-neutral-600 dark:text-neutral-400">{t.description}</span>
                  </span>
                </label>
              ))}
            </li>
          ))}
        </ul>
        {status.mcp.problems.map((p) => (
          <p key={p} className="text-xs text-red-700 dark:text-red-300">
            {p}
          </p>
        ))}
        {status.mcp.editable ? (
          <ConfigEditor onSaved={setStatus} passwordRequired={status.mcp.passwordRequired} />
        ) : (
          <p className="text-xs text-neutral-600 dark:text-neutral-400">
            {t.rich('configFile', { path: status.mcp.configPath, code })}
          </p>
        )}
      </section>
      {!status.webSearch.enabled && (
        <p className="text-neutral-600 dark:text-neutral-400">
          {t('webSearchOff')} {t.rich('webSearchHowTo', { code })}
          {status.webSearch.problem && <> {t('webSearchProblem', { problem: status.webSearch.problem })}</>}
        </p>
      )}
    </>
  );
}
