'use client';
// The MCP servers' states and tools and whether web search is on, as the server tells them; asked again every second
// while a server is connecting (the servers connect when first asked). Unanswered (the server down for a moment), what
// was shown stays: the next poll, or the next time the panel opens, asks again.
import { useEffect, useState } from 'react';
import { integrationsStatus } from '@/app/actions/integrations';
import type { IntegrationsStatus } from '@/lib/server/integrations';

const POLL_MS = 1000;

const ignoreUnanswered = () => undefined;

export function useIntegrationsStatus(): IntegrationsStatus | null {
  const [status, setStatus] = useState<IntegrationsStatus | null>(null);
  useEffect(() => {
    void integrationsStatus().then(setStatus, ignoreUnanswered);
  }, []);
  const connecting = status?.mcp.busy || status?.mcp.servers.some((s) => s.state.status === 'connecting');
  useEffect(() => {
    if (!connecting) return;
    const timer = setInterval(() => void integrationsStatus().then(setStatus, ignoreUnanswered), POLL_MS);
    return () => clearInterval(timer);
  }, [connecting]);
  return status;
}
