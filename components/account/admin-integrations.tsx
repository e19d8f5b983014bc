'use client';
// The admin page's tools and integrations: the MCP servers (their state, and the config file edited here when the
// server allows it) and web search (a provider with its URL and key, kept on the server, over the environment's).
import { useTranslations } from 'next-intl';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { readMcpConfigText, saveMcpConfigText, saveWebSearchSetting } from '@/app/actions/integrations';
import { WEB_SEARCH_PROVIDER_NAMES, WEB_SEARCH_PROVIDERS } from '@/lib/config/web-search-providers';
import type { IntegrationsStatus } from '@/lib/server/integrations';
import type { WebSearchInput, WebSearchView } from '@/lib/server/web-search-settings';
import { failureText, useCodedText, type CodedText } from '../chat/server-text';
import { alertBox, field, muted, primaryButton } from './styles';
import { useHydrated } from '../use-hydrated';

export function AdminIntegrations({
  status: initial,
  webSearch,
}: {
  status: IntegrationsStatus;
  webSearch: WebSearchView;
}) {
  const t = useTranslations('admin.integrations');
  const tm = useTranslations('mcp');
  const [status, setStatus] = useState(initial);
  const code = (chunks: ReactNode) => <code className="break-all">{chunks}</code>;
  return (
    <section aria-labelledby="admin-integrations" className="flex flex-col gap-4">
      <h2 id="admin-integrations" className="text-lg font-semibold">
        {t('heading')}
      </h2>
      <section aria-label={tm('title')} className="flex flex-col gap-2">
        <h3 className="font-semibold">{tm('title')}</h3>
        <ul className="text-sm">
          {status.mcp.servers.map((s) => (
            <li key={s.name} aria-label={tm('server', { name: s.name })}>
              <code>{s.name}</code> <span className="text-xs">({s.transport})</span>:{' '}
              {s.state.status === 'ready'
                ? tm('ready', { n: s.tools.length })
                : s.state.status === 'failed'
                  ? tm('failed', { error: s.state.error })
                  : s.state.status === 'connecting'
                    ? tm('connecting')
                    : tm('closed')}
            </li>
          ))}
        </ul>
        {status.mcp.configError && (
          <p role="alert" className={alertBox}>
            {status.mcp.configError}
          </p>
        )}
        {status.mcp.editable ? (
          <ConfigEditor onSaved={setStatus} passwordRequired={status.mcp.passwordRequired} />
        ) : (
          <p className={muted}>{tm.rich('configFile', { path: status.mcp.configPath, code })}</p>
        )}
      </section>
      <WebSearchForm initial={webSearch} />
    </section>
  );
}

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
  // A failure's code and what it fills in ({problem}, an error id), so the page says it in its language.
  const setError = (failure: Parameters<typeof failureText>[0] | null) =>
    setProblem(failure === null ? null : failureText(failure));
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const id = useId();
  useEffect(() => {
    void readMcpConfigText().then((r) => (r.ok ? setText(r.text) : setError(r)));
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
          } else setError(r);
        }}
      >
        {saving ? t('saving') : t('save')}
      </button>
      {saved && <span className="ml-2 text-xs">{t('saved')}</span>}
    </div>
  );
}

const PROVIDER_CHOICES = ['environment', 'off', ...WEB_SEARCH_PROVIDERS] as const;
/** The refusals of a provider that failed its test search: the form then offers to save it anyway. */
const PROBE_FAILURES = new Set(['web-search-unreachable', 'web-search-http', 'web-search-not-json']);

/** Web search from the admin page: a provider, its URL (SearXNG's) and its key, kept on the server. */
function WebSearchForm({ initial }: { initial: WebSearchView }) {
  const t = useTranslations('admin.integrations');
  const hydrated = useHydrated();
  const said = useCodedText('errors');
  const [view, setView] = useState(initial);
  const [provider, setProvider] = useState<WebSearchInput['provider']>(
    initial.source === 'page' && initial.provider ? initial.provider : 'environment',
  );
  const [url, setUrl] = useState(initial.url);
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // The provider failed its test search on save: keeping it takes an explicit "save anyway" (it may be down for now).
  const [probeFailed, setProbeFailed] = useState(false);
  const [saveAnyway, setSaveAnyway] = useState(false);
  const changed = () => {
    setProbeFailed(false);
    setSaveAnyway(false);
  };
  const keyed = provider === 'tavily' || provider === 'serper' || provider === 'brave';
  const providerName = (p: (typeof PROVIDER_CHOICES)[number]) =>
    p === 'environment' || p === 'off' ? t(`providers.${p}`) : WEB_SEARCH_PROVIDER_NAMES[p];
  const id = useId();

  async function save() {
    setError(null);
    setSaved(false);
    const answer = await saveWebSearchSetting({ provider, url, apiKey, saveAnyway: probeFailed && saveAnyway });
    if (!answer.ok) {
      if (answer.code && PROBE_FAILURES.has(answer.code)) setProbeFailed(true);
      return setError(said(failureText(answer)));
    }
    changed();
    setView(answer.value);
    setApiKey('');
    setSaved(true);
  }

  return (
    <form
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3 id={`${id}-title`} className="font-semibold">
        {t('webSearch')}
      </h3>
      <p role="status" className={muted}>
        {view.enabled && view.provider
          ? t('webSearchOn', { provider: providerName(view.provider) })
          : t('webSearchOff')}
        {view.problem && <> {t('webSearchProblem', { problem: view.problem })}</>}
      </p>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t('provider')}
        <select
          className={field}
          value={provider}
          onChange={(e) => {
            setProvider(e.target.value as WebSearchInput['provider']);
            changed();
          }}
        >
          {PROVIDER_CHOICES.map((p) => (
            <option key={p} value={p}>
              {providerName(p)}
            </option>
          ))}
        </select>
      </label>
      {provider !== 'environment' && provider !== 'off' && (
        <label className="flex flex-col gap-1 text-sm font-medium">
          {provider === 'searxng' ? t('searxngUrl') : t('endpoint')}
          <input
            type="url"
            className={field}
            value={url}
            placeholder={provider === 'searxng' ? t('searxngExample') : t('endpointDefault')}
            onChange={(e) => {
              setUrl(e.target.value);
              changed();
            }}
          />
        </label>
      )}
      {keyed && (
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('apiKey')}
          <input
            type="password"
            autoComplete="off"
            className={field}
            value={apiKey}
            placeholder={view.keySet && view.source === 'page' && view.provider === provider ? t('keyKept') : ''}
            onChange={(e) => {
              setApiKey(e.target.value);
              changed();
            }}
          />
        </label>
      )}
      {error && (
        <p role="alert" className={alertBox}>
          {error}
        </p>
      )}
      {probeFailed && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={saveAnyway} onChange={(e) => setSaveAnyway(e.target.checked)} />
          {t('saveAnyway')}
        </label>
      )}
      <div className="flex items-center gap-2">
        <button type="submit" disabled={!hydrated} className={primaryButton}>
          {t('saveWebSearch')}
        </button>
        {saved && <span className="text-sm">{t('saved')}</span>}
      </div>
    </form>
  );
}
