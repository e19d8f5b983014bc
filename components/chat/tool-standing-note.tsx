'use client';
// Said beside a ticked tool the server does not offer now (lib/chat/tool-standing.ts): "not on this server" with
// what to do (`fix`: the caller's words, which say where it is removed), or "not available now" with why.
import { useTranslations } from 'next-intl';
import type { ToolStanding } from '@/lib/chat/tool-standing';
import { useCodedText } from './server-text';

export function ToolStandingNote({
  standing,
  name,
  fix,
}: {
  standing: Exclude<ToolStanding, { kind: 'offered' }>;
  /** The tool's name (an MCP server's refusal names it). */
  name: string;
  /** What to do with a tool that is not on this server. */
  fix: string;
}) {
  const t = useTranslations('toolStanding');
  const coded = useCodedText('errors');
  const why = (): string | undefined => {
    if (standing.kind === 'not-here') return fix;
    if (standing.kind === 'mcp-not-ready')
      return standing.connecting
        ? t('mcpConnecting', { server: standing.server })
        : coded({ code: 'mcp-server-down', values: { server: standing.server, tool: name } });
    const tool = standing.tool;
    if (tool.why === 'unavailable') return tool.refusal ? coded(tool.refusal) : t('askAdmin');
    return t(tool.why === 'not-enabled' ? 'notEnabled' : 'noImages');
  };
  return (
    <>
      <span className="text-xs font-medium text-amber-800 dark:text-amber-200">
        {t(standing.kind === 'not-here' ? 'notHere' : 'notAvailable')}
      </span>
      <span className="block text-xs text-neutral-600 dark:text-neutral-400">{why()}</span>
    </>
  );
}
