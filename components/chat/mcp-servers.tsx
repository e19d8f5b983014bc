'use client';
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import Link from 'next/link';
import type { ServerStatus } from '@/lib/mcp';
import type { IntegrationsStatus } from '@/lib/server/integrations';
import { useChat } from './store';

/** MCP servers with their state and tools (on/off for this conversation), and whether web search is on. Setting
 *  them up is the admin page's (the admin gets a link; the server's paths and variables are theirs only). `status`:
 *  the settings panel's (useIntegrationsStatus), null until it is in. */
export function McpServers({ status }: { status: IntegrationsStatus | null }) {
  const t = useTranslations('mcp');
  const settings = useChat((s) => s.settings);
  const update = useChat((s) => s.updateSettings);

  if (!settings || !status) return null;
  const toggle = (name: string, on: boolean) =>
    void update({ tools: on ? [...settings.tools, name] : settings.tools.filter((x) => x !== name) });
  const code = (chunks: ReactNode) => <code>{chunks}</code>;
  const stateText = (server: ServerStatus): string => {
    const s = server.state;
    if (s.status === 'connecting') return t('connecting');
    if (s.status === 'ready') return t('ready', { n: server.tools.length });
    if (s.status === 'failed') return s.error ? t('failed', { error: s.error }) : t('failedPlain');
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
            {status.admin ? t.rich('none', { path: status.mcp.configPath, code }) : t('noneUser')}
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
        {status.admin && (
          <Link href="/admin" className="inline-block text-xs text-blue-700 underline dark:text-blue-300">
            {t('setUpOnAdminPage')}
          </Link>
        )}
      </section>
      {!status.webSearch.enabled && (
        <p className="text-neutral-600 dark:text-neutral-400">
          {t('webSearchOff')} {status.admin ? t.rich('webSearchHowTo', { code }) : t('webSearchAskAdmin')}
          {status.webSearch.problem && <> {t('webSearchProblem', { problem: status.webSearch.problem })}</>}
        </p>
      )}
    </>
  );
}
