import type { ToolFile } from '../../lib/protocol/events';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Files a tool wrote (code_interpreter): each a download link (raster images are shown on the card: ToolImages). */
export function ToolFiles({ files }: { files: ToolFile[] }) {
  return (
    <section aria-label="Files written">
      <div className="mb-1 text-xs font-semibold tracking-wide text-neutral-700 uppercase dark:text-neutral-300">
        Files
      </div>
      <ul className="space-y-2">
        {files.map((f) => (
          <li key={f.url} className="text-xs">
            <a
              href={f.url}
              download={f.name.split('/').pop()}
              className="font-mono text-blue-700 underline hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100"
            >
              {f.name}
            </a>{' '}
            <span className="text-neutral-600 dark:text-neutral-400">({formatBytes(f.bytes)})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
