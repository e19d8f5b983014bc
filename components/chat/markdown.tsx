'use client';

import 'katex/dist/katex.min.css';
import './code-theme.css';
import { useTranslations } from 'next-intl';
import { Fragment, memo, useDeferredValue, useMemo, useState, type ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { AnswerImage } from './answer-image';
import { CodeBlock } from './code-block';
import { BlockSplitter } from './markdown-blocks';
import { nestsDeeperThan } from './markdown-depth';
import { normalizeMath } from './math';

export interface MarkdownProps {
  text: string;
}

const remarkPlugins = [remarkGfm, remarkMath];
// rehype-highlight builds a new highlighter (all common grammars, compiled on first use) each time it is attached,
// and react-markdown attaches plugins on every render: one shared transform does that work once per page.
const highlight = rehypeHighlight();
// KaTeX first: display math arrives as <pre><code class="language-math">, which it replaces before highlighting.
const rehypePlugins = [rehypeKatex, () => highlight];

function fenceLanguage(node: ExtraProps['node']): string {
  const code = node?.children.find((c) => c.type === 'element' && c.tagName === 'code');
  if (code?.type !== 'element') return '';
  const classes = code.properties.className;
  const list = Array.isArray(classes) ? classes.map(String) : [];
  const lang = list.find((c) => c.startsWith('language-'));
  return lang ? lang.slice('language-'.length) : '';
}

/** GFM task-list boxes are read-only; the item's text says what the task is, the label says whether it is done. */
function TaskBox(props: ComponentProps<'input'>) {
  const t = useTranslations('markdown');
  return <input {...props} aria-label={props.checked ? t('done') : t('notDone')} />;
}

/** A Markdown heading one level down (`#` is an h2, `######` stays an h6): the page's h1 is the conversation's
 *  title. Drawn at its Markdown level's size. */
const HEADING_CLASSES = [
  'mt-4 mb-2 text-xl font-semibold',
  'mt-4 mb-2 text-lg font-semibold',
  'mt-3 mb-1 font-semibold',
  'font-semibold',
  '',
  '',
] as const;
function demoted(level: 1 | 2 | 3 | 4 | 5 | 6): Components['h1'] {
  const Tag = `h${Math.min(6, level + 1)}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6';
  const className = HEADING_CLASSES[level - 1] || undefined;
  return function Heading({ node: _node, ...props }) {
    return <Tag {...props} className={className} />;
  };
}

const components: Components = {
  h1: demoted(1),
  h2: demoted(2),
  h3: demoted(3),
  h4: demoted(4),
  h5: demoted(5),
  h6: demoted(6),
  pre: ({ node, children }) => <CodeBlock language={fenceLanguage(node)}>{children}</CodeBlock>,
  a: ({ node: _node, href, children, ...rest }) =>
    href?.startsWith('#') ? (
      <a href={href} {...rest} className="text-blue-700 underline dark:text-blue-400">
        {children}
      </a>
    ) : (
      <a
        href={href}
        {...rest}
        target="_blank"
        rel="noopener noreferrer"
        className="break-words text-blue-700 underline hover:text-blue-900 dark:text-blue-400 dark:hover:text-blue-300"
      >
        {children}
      </a>
    ),
  table: ({ node: _node, ...props }) => (
    <div className="my-3 overflow-x-auto">
      <table {...props} className="min-w-full border-collapse text-sm" />
    </div>
  ),
  th: ({ node: _node, ...props }) => (
    <th
      {...props}
      className="border border-neutral-300 bg-neutral-100 px-2 py-1 text-left font-semibold dark:border-neutral-700 dark:bg-neutral-800"
    />
  ),
  td: ({ node: _node, ...props }) => (
    <td {...props} className="border border-neutral-300 px-2 py-1 align-top dark:border-neutral-700" />
  ),
  input: ({ node: _node, ...props }) => (props.type === 'checkbox' ? <TaskBox {...props} /> : <input {...props} />),
  // Model output: an image on another site is not loaded by itself (answer-image.tsx).
  img: ({ node: _node, alt, src }) => (
    <AnswerImage
      src={typeof src === 'string' ? src : undefined}
      alt={alt}
      className="my-2 h-auto max-w-full rounded"
      loading="lazy"
    />
  ),
};

// Element spacing and inline code are styled from the wrapper: there is no typography plugin, and react-markdown 10
// does not tell a `code` override whether it is inline.
const proseClasses = [
  'min-w-0 break-words leading-relaxed',
  '[&_p]:my-2 [&_ul]:my-2 [&_ol]:my-2 [&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6 [&_li]:my-0.5',
  '[&_ul.contains-task-list]:list-none [&_ul.contains-task-list]:pl-1 [&_.task-list-item_input]:mr-1.5',
  '[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-neutral-300 [&_blockquote]:pl-3',
  '[&_blockquote]:text-neutral-700 dark:[&_blockquote]:border-neutral-600 dark:[&_blockquote]:text-neutral-300',
  '[&_hr]:my-4 [&_hr]:border-neutral-300 dark:[&_hr]:border-neutral-700',
  '[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-neutral-100 [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5',
  '[&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.9em] dark:[&_:not(pre)>code]:bg-neutral-800',
  '[&_.katex-display]:overflow-x-auto [&_.katex-display]:overflow-y-hidden [&_.katex-display]:py-1',
].join(' ');

/** One run of top-level blocks rendered as its own document (no wrapper); memoized on its text. */
export const MarkdownPart = memo(function MarkdownPart({ text }: MarkdownProps) {
  const source = useMemo(() => normalizeMath(text), [text]);
  return useMemo(() => {
    // Nesting is what makes the pipeline's work explode (seconds at a few hundred levels): text nested deeper than
    // any real answer is shown as it is, unparsed (markdown-depth.ts).
    if (nestsDeeperThan(source)) return <p className="whitespace-pre-wrap">{source}</p>;
    // react-markdown builds its tree synchronously (it uses no hooks), so a text it cannot build is caught here:
    // model output nested thousands deep (`>>>>…`, `- - - …`) overflows the parser's stack, and would take the whole
    // page down with it. It is shown as the text it is instead.
    try {
      return ReactMarkdown({ remarkPlugins, rehypePlugins, components, children: source });
    } catch {
      return <p className="whitespace-pre-wrap">{source}</p>;
    }
  }, [source]);
});

/**
 * Markdown as the model writes it: GFM, highlighted code with a copy button, math in $…$, $$…$$, \(…\), \[…\].
 * Raw HTML is shown as text, never rendered. An unclosed code fence (mid-stream) renders as a code block. Rendered
 * in parts so that, while an answer streams, only its growing tail is parsed again.
 */
export const Markdown = memo(function Markdown({ text }: MarkdownProps) {
  // One splitter per rendered text: while an answer streams it only looks at what was appended.
  const [splitter] = useState(() => new BlockSplitter());
  // While an answer streams, its new text is parsed and rendered at transition priority: React can pause that work
  // for input and for the browser's frames, and text that arrives meanwhile joins the next render instead of
  // queueing one render per update.
  const shown = useDeferredValue(text);
  const parts = useMemo(() => splitter.split(shown), [splitter, shown]);
  return (
    <div className={proseClasses}>
      {parts.map((part, i) => (
        // The newline is what react-markdown puts between top-level blocks of one document.
        <Fragment key={i}>
          {i > 0 && '\n'}
          <MarkdownPart text={part} />
        </Fragment>
      ))}
    </div>
  );
});
