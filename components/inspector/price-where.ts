'use client';
import { ENV_CONNECTION_NAME, LOCAL_CONNECTION_NAME } from '@/lib/models/ids';
import { useModels } from '../models/models-store';

/** Where this viewer would set the prices of the connection a run went through: its Edit in Settings → Models (their
 *  own, or the admin's server-wide one), the server's OPENAI_PRICE_* (the environment's, for the admin), nowhere of
 *  theirs (the admin sets them), or nowhere at all (a local model has none). */
export type PriceWhere = 'edit' | 'environment' | 'admin' | 'local';

/** `connection`: the name its run-start recorded; the page's list of connections says whose it is. */
export function usePriceWhere(connection: string | undefined): PriceWhere {
  return useModels((s) => {
    const named = s.connections.filter((c) => c.name === connection);
    const listed = named.length === 1 ? named[0] : undefined;
    if (listed?.editable) return 'edit';
    if (!listed && connection === LOCAL_CONNECTION_NAME) return 'local';
    const environment = listed ? listed.source === 'environment' : connection === ENV_CONNECTION_NAME;
    if (environment) return s.admin ? 'environment' : 'admin';
    // Listed and not theirs to edit: a server-wide one. Not listed: one since removed, theirs to add again.
    return listed && !s.admin ? 'admin' : 'edit';
  });
}
