// Who the current server action counts against for run limits (lib/http/client.ts); not an action itself.
import { headers } from 'next/headers';
import { clientKey } from '@/lib/http/client';

export async function requestClient(): Promise<string> {
  return clientKey(await headers());
}
