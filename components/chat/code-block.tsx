'use client';

import { useTranslations } from 'next-intl';
import { useRef, type ReactNode } from 'react';
import { CopyButton } from './copy-button';

export interface CodeBlockProps {
  /** The highlighted <code> element react-markdown built. */
  children: ReactNode;
  /** The fence's language, shown in the header ('' when none). */
  language: string;
}

/** A fenced code block: language label, copy button, and code that scrolls sideways instead of wrapping. */
export function CodeBlock({ children, language }: CodeBlockProps) {
  const t = useTranslations('markdown');
  const preRef = useRef<HTMLPreElement>(null);
  return (
    <div className="my-3 overflow-hidden rounded-lg border border-neutral-200 bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-900">
      <div className="flex items-center justify-between border-b border-neutral-200 px-3 py-1 dark:border-neutral-700">
        <span className="font-mono text-xs text-neutral-600 dark:text-neutral-400">{language || t('plainText')}</span>
        <CopyButton getText={() => (preRef.current?.textContent ?? '').replace(/\n$/, '')} />
      </div>
      <pre
        ref={preRef}
        // Scrollable regions must be reachable by keyboard (axe: scrollable-region-focusable).
        tabIndex={0}
        className="overflow-x-auto p-3 font-mono text-[13px] leading-relaxed focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400"
      >
        {children}
      </pre>
    </div>
  );
}
