// The address a request really came from. Next gives route handlers and the proxy no socket, and the
// X-Forwarded-For it fills in keeps whatever the client sent; so the server's own HTTP layer stamps every request,
// as it arrives, with its socket's remote address in a header of ours (any value a client sent is overwritten).
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { processWide } from '../config/process-wide';

export const PEER_HEADER = 'x-agent-studio-peer';

/** A request's headers, as both Request and Next's headers() give them. */
export interface HeaderBag {
  get(name: string): string | null;
}

/** Subscribes to Node's `http.server.request.start` channel, once per process (instrumentation.ts calls this). */
export function installPeerStamp(): void {
  processWide('peer-stamp', () => {
    subscribe('http.server.request.start', (message) => {
      const { request, socket } = message as { request: IncomingMessage; socket: Socket };
      request.headers[PEER_HEADER] = socket.remoteAddress ?? '';
    });
    return true;
  });
}

/** The stamped address, or undefined when the request was not stamped (then nothing about it is trusted). */
export function peerOf(headers: HeaderBag): string | undefined {
  return headers.get(PEER_HEADER) || undefined;
}
