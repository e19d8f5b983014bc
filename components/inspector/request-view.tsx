'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useState, type ReactNode } from 'react';
import type { LlmRequest } from '../../lib/protocol/events';
import { formatNumber } from '../chat/format';
import { BUTTON, CARD, PRE, SECTION_TITLE } from './styles';

/** Longer message text is folded, and only the latest messages are drawn at first, so that a request holding a
 *  long history (iteration 100 of a run) stays quick to open. */
const FOLD_CHARS = 1500;
const LATEST_MESSAGES = 40;
/** The request's field, named as the wire names it (like the parameters above it). */
const STOP_FIELD = 'stop';

/** What an image part of a request is called: the file its URL names (a data URL by its type). The request holds
 *  the reference it was built from, not something to show. */
function imageName(url: unknown): string {
  if (typeof url !== 'string') return '?';
  if (/^data:/i.test(url)) return url.slice(0, Math.max(url.indexOf(';'), 5));
  const last = url.split(/[?#]/)[0]!.split('/').pop() || url;
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // shown as written
  }
  return name.length > 60 ? `${name.slice(0, 57)}…` : name;
}

/** A message part as text; an image part reads as `imageText` of its name. */
function partText(part: unknown, imageText: (name: string) => string): string {
  if (!part || typeof part !== 'object') return String(part);
  const p = part as Record<string, unknown>;
  if (typeof p.text === 'string') return p.text;
  if (p.type === 'image_url') return imageText(imageName((p.image_url as { url?: unknown } | undefined)?.url));
  return JSON.stringify(p);
}

function messageText(content: unknown, imageText: (name: string) => string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => partText(part, imageText)).join('\n');
  return JSON.stringify(content);
}

function FoldedText({ text }: { text: string }) {
  const t = useTranslations('inspector');
  const locale = useLocale();
  const [all, setAll] = useState(false);
  if (text.length <= FOLD_CHARS) return <pre className={PRE}>{text || t('empty')}</pre>;
  return (
    <div>
      <pre className={PRE}>{all ? text : text.slice(0, FOLD_CHARS) + '…'}</pre>
      <button type="button" className={`${BUTTON} mt-1`} onClick={() => setAll((v) => !v)}>
        {all ? t('showLess') : t('showAllChars', { n: formatNumber(text.length, locale) })}
      </button>
    </div>
  );
}

interface WireToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

function MessageCard({ index, message }: { index: number; message: Record<string, unknown> }) {
  const t = useTranslations('inspector');
  const role = typeof message.role === 'string' ? message.role : t('unknownRole');
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCall[]) : [];
  const imageText = (name: string) => t('imagePart', { name });
  const reasoning = messageText(message.reasoning_content, imageText);
  const content = messageText(message.content, imageText);
  return (
    <li
      aria-label={t('message', { n: index + 1, role })}
      className={`${CARD} [contain-intrinsic-size:auto_6rem] [content-visibility:auto]`}
    >
      <div className="mb-1 flex flex-wrap items-baseline gap-2 text-xs">
        <span className="font-mono font-semibold">{role}</span>
        {typeof message.name === 'string' && (
          <span className="text-neutral-600 dark:text-neutral-400">{message.name}</span>
        )}
        {typeof message.tool_call_id === 'string' && (
          <span className="font-mono text-neutral-600 dark:text-neutral-400">
            {t('answers', { id: message.tool_call_id })}
          </span>
        )}
      </div>
      {reasoning && (
        <details className="mb-1 text-xs">
          <summary className="cursor-pointer">{t('reasoningSent')}</summary>
          <FoldedText text={reasoning} />
        </details>
      )}
      {(content || !calls.length) && <FoldedText text={content} />}
      {calls.map((c, i) => (
        <div key={c.id ?? i} className="mt-1 text-xs">
          <span className="font-semibold">{t('toolCall')}</span> <span className="font-mono">{c.function?.name}</span>{' '}
          {c.id && <span className="font-mono text-neutral-600 dark:text-neutral-400">({c.id})</span>}
          <pre className={PRE}>{c.function?.arguments ?? ''}</pre>
        </div>
      ))}
    </li>
  );
}

function toolName(tool: Record<string, unknown>): string {
  const fn = tool.function as { name?: unknown } | undefined;
  return typeof fn?.name === 'string' ? fn.name : typeof tool.name === 'string' ? tool.name : 'tool';
}

/** The exact body of one model call: messages as cards, tool schemas, stop words, parameters; or the raw JSON. */
export function RequestView({ request }: { request: LlmRequest }) {
  const t = useTranslations('inspector');
  const [raw, setRaw] = useState(false);
  const [allMessages, setAllMessages] = useState(false);
  const total = request.messages.length;
  const from = allMessages ? 0 : Math.max(0, total - LATEST_MESSAGES);
  return (
    <section aria-label={t('request')} className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">{t('requestTitle')}</h3>
        <span className="text-xs text-neutral-600 dark:text-neutral-400">
          {t.rich('requestSummary', {
            model: request.model,
            messages: request.messages.length,
            tools: request.tools?.length ?? 0,
            mono: (chunks: ReactNode) => <span className="font-mono">{chunks}</span>,
          })}
        </span>
        <button type="button" aria-pressed={raw} className={`${BUTTON} ml-auto`} onClick={() => setRaw((v) => !v)}>
          {t('rawJson')}
        </button>
      </div>
      {raw ? (
        <pre className={`${PRE} max-h-[32rem]`} tabIndex={0} aria-label={t('requestJson')}>
          {JSON.stringify(request, null, 2)}
        </pre>
      ) : (
        <>
          <div>
            <h4 className={SECTION_TITLE}>{t('parameters')}</h4>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs">
              {Object.entries(request.params).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="font-mono">{k}</dt>
                  <dd className="font-mono break-all">{JSON.stringify(v)}</dd>
                </div>
              ))}
              <dt className="font-mono">{STOP_FIELD}</dt>
              <dd className="font-mono break-all">{request.stop?.length ? JSON.stringify(request.stop) : t('none')}</dd>
            </dl>
          </div>
          {request.tools && request.tools.length > 0 && (
            <div>
              <h4 className={SECTION_TITLE}>{t('toolSchemas')}</h4>
              <ul className="space-y-1">
                {request.tools.map((t, i) => (
                  <li key={i}>
                    <details className="text-xs">
                      <summary className="cursor-pointer font-mono">{toolName(t)}</summary>
                      <pre className={PRE}>{JSON.stringify(t, null, 2)}</pre>
                    </details>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div>
            <h4 className={SECTION_TITLE}>{t('messages')}</h4>
            {from > 0 && (
              <p className="mb-2 flex flex-wrap items-center gap-2 text-xs">
                {t('showingLast', { shown: total - from, total })}
                <button type="button" className={BUTTON} onClick={() => setAllMessages(true)}>
                  {t('showAllMessages', { total })}
                </button>
              </p>
            )}
            <ol aria-label={t('messagesSent')} start={from + 1} className="space-y-2">
              {request.messages.slice(from).map((m, i) => (
                <MessageCard key={from + i} index={from + i} message={m} />
              ))}
            </ol>
          </div>
        </>
      )}
    </section>
  );
}
