import { useTranslations } from 'next-intl';
import type { AppInfo } from '@/lib/chat/page';

/** Which Python runs code_interpreter, and how to get the other one (a line under the tools in Settings). The
 *  reason CPython cannot run is the server's detail, shown as it came. */
export function CodeBackendNote({ info }: { info: AppInfo['codeInterpreter'] }) {
  const t = useTranslations('settings.codeBackend');
  // Someone who is not the admin is told what runs, not how the server is set up.
  if (!('install' in info))
    return (
      <p className="text-neutral-600 dark:text-neutral-400">
        {t(info.backend === 'python' ? 'userPython' : 'userPyodide')}
      </p>
    );
  const code = (chunks: React.ReactNode) => <code className="break-all">{chunks}</code>;
  const values = { install: info.install, problem: info.pythonProblem ?? '', code };
  let body;
  if (info.backend === 'python' && info.pythonProblem) body = t.rich('broken', values);
  else if (info.backend === 'python') body = t.rich('python', values);
  else if (info.requested === 'pyodide') body = t.rich('pyodideChosen', values);
  else
    body = (
      <>
        {t.rich('pyodide', values)}
        {info.pythonProblem && <span className="block">{t('why', { problem: info.pythonProblem })}</span>}
      </>
    );
  return <p className="text-neutral-600 dark:text-neutral-400">{body}</p>;
}
