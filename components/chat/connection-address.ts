'use client';
import { useModels } from '../models/models-store';
import { shownAddress } from './format';

/** The address of the connection a run went through, by the name its run-start recorded, when this viewer may see it:
 *  the page's list gives the address of the connections they own (and every one to the admin), and none of the
 *  environment's or another's server-wide ones. Undefined too when the name is not one connection's. */
export function useConnectionAddress(name: string | undefined): string | undefined {
  return useModels((s) => {
    if (!name) return undefined;
    const named = s.connections.filter((c) => c.name === name);
    return named.length === 1 && named[0]!.baseURL ? shownAddress(named[0]!.baseURL) : undefined;
  });
}
