'use client';
import { useState } from 'react';
import type { LlmRequest } from '../../lib/protocol/events';
import { BUTTON, CARD, PRE, SECTION_TITLE } from './styles';

/** Longer message text is folded, and only the latest messages are drawn at first, so that a request holding a
 *  long history (iteration 100 of a run) stays quick to open. */
const FOLD_CHARS = 1500;
const LATEST_MESSAGES = 40;

function partText(part: unknown): string {
  if (!part || typeof part !== 'object') return String(part);
  const p = part as Record<string, unknown>;
  if (typeof p.text === 'string') return p.text;
  if (p.type === 'image_url') return '[image]';
  return JSON.stringify(p);
}

function messageText(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('\n');
  return JSON.stringify(content);
}

function FoldedText({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  if (text.length <= FOLD_CHARS) return <pre className={PRE}>{text || '(empty)'}</pre>;
  return (
    <div>
      <pre className={PRE}>{all ? text : `${text.slice(0, FOLD_CHARS)}…`}</pre>
      <button type="button" className={`${BUTTON} mt-1`} onClick={() => setAll((v) => !v)}>
        {all ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`}
      </button>
    </div>
  );
}

interface WireToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

function MessageCard({ index, message }: { index: number; message: Record<string, unknown> }) {
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCall[]) : [];
  const reasoning = messageText(message.reasoning_content);
  return (
    <li
      aria-label={`Message ${index + 1}: ${role}`}
      className={`${CARD} [contain-intrinsic-size:auto_6rem] [content-visibility:auto]`}
    >
      <div className="mb-1 flex flex-wrap items-baseline gap-2 text-xs">
        <span className="font-semibold">{role}</span>
        {typeof message.name === 'string' && (
          <span className="text-neutral-600 dark:text-neutral-400">{message.name}</span>
        )}
        {typeof message.tool_call_id === 'string' && (
          <span className="font-mono text-neutral-600 dark:text-neutral-400">answers {message.tool_call_id}</span>
        )}
      </div>
      {reasoning && (
        <details className="mb-1 text-xs">
          <summary className="cursor-pointer">Reasoning sent back</summary>
          <FoldedText text={reasoning} />
        </details>
      )}
      {(messageText(message.content) || !calls.length) && <FoldedText text={messageText(message.content)} />}
      {calls.map((c, i) => (
        <div key={c.id ?? i} className="mt-1 text-xs">
          <span className="font-semibold">tool call</span> <span className="font-mono">{c.function?.name}</span>{' '}
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
  const [raw, setRaw] = useState(false);
  const [allMessages, setAllMessages] = useState(false);
  const total = request.messages.length;
  const from = allMessages ? 0 : Math.max(0, total - LATEST_MESSAGES);
  return (
    <section aria-label="Request" className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="text-sm font-semibold">Request sent to the model</h4>
        <span className="text-xs text-neutral-600 dark:text-neutral-400">
          model <span className="font-mono">{request.model}</span>, {request.messages.length} messages,{' '}
          {request.tools?.length ?? 0} tools
        </span>
        <button type="button" aria-pressed={raw} className={`${BUTTON} ml-auto`} onClick={() => setRaw((v) => !v)}>
          Raw JSON
        </button>
      </div>
      {raw ? (
        <pre className={`${PRE} max-h-[32rem]`} tabIndex={0} aria-label="Request as JSON">
          {JSON.stringify(request, null, 2)}
        </pre>
      ) : (
        <>
          <div>
            <h5 className={SECTION_TITLE}>Parameters</h5>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs">
              {Object.entries(request.params).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="font-mono">{k}</dt>
                  <dd className="font-mono break-all">{JSON.stringify(v)}</dd>
                </div>
              ))}
              <dt className="font-mono">stop</dt>
              <dd className="font-mono break-all">{request.stop?.length ? JSON.stringify(request.stop) : '(none)'}</dd>
            </dl>
          </div>
          {request.tools && request.tools.length > 0 && (
            <div>
              <h5 className={SECTION_TITLE}>Tool schemas</h5>
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
            <h5 className={SECTION_TITLE}>Messages</h5>
            {from > 0 && (
              <p className="mb-2 flex flex-wrap items-center gap-2 text-xs">
                Showing the last {total - from} of {total} messages.
                <button type="button" className={BUTTON} onClick={() => setAllMessages(true)}>
                  Show all {total} messages
                </button>
              </p>
            )}
            <ol aria-label="Messages sent" start={from + 1} className="space-y-2">
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
