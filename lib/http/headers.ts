// The page's Content-Security-Policy (a fresh nonce per page: Next puts it on its own inline scripts, the layout on
// the theme script) and the headers every answer carries (next.config.js sets those on every path).
import settings from './settings.json';

/** 16 random bytes, base64: unguessable per page. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

/**
 * No script runs without the nonce (or being loaded by one that has it); styles may be inline because KaTeX and
 * React set style attributes; images come from the app itself (uploads, tool images), data: and blob: URLs, and the
 * hosts of IMAGE_HOSTS only: an answer's image anywhere else would carry whatever a prompt injection put into its
 * URL to that host, so the page shows a "Load image from <host>" button instead (components/chat/answer-image.tsx)
 * and the CSP refuses it should anything still try; nothing may frame the page.
 */
export function pageCsp(nonce: string, dev = false, imageHosts: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...imageHosts].join(' '),
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** On every answer, pages, route handlers and static files alike (next.config.js adds them). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = settings.securityHeaders;

/** The most a message body may be: POST /api/chat, a server action, the sign-in form. */
export const MESSAGE_BODY_MAX_BYTES: number = settings.messageBodyBytes;
