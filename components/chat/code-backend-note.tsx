import type { AppInfo } from '@/lib/chat/page';

const TEXT = {
  python: 'code_interpreter runs CPython with numpy, pandas and matplotlib, sandboxed by bubblewrap.',
  toPyodide: 'For Pyodide instead, set CODE_INTERPRETER_BACKEND=pyodide and restart the server.',
  pyodide: 'code_interpreter runs Pyodide: the standard library only.',
  toPython: 'For numpy, pandas and matplotlib (CPython in bubblewrap), install',
  thenRestart: 'and restart the server.',
  pyodideChosen: 'For CPython with numpy, pandas and matplotlib, set CODE_INTERPRETER_BACKEND=auto; it needs',
  broken: 'code_interpreter is set to CPython (CODE_INTERPRETER_BACKEND=python) but it cannot run here:',
  brokenFix: 'Install it with',
  orPyodide: 'or set CODE_INTERPRETER_BACKEND=pyodide.',
  why: 'Not available now:',
};

/** Which Python runs code_interpreter, and how to get the other one (a line under the tools in Settings). */
export function CodeBackendNote({ info }: { info: AppInfo['codeInterpreter'] }) {
  const cmd = <code className="break-all">{info.install}</code>;
  let body;
  if (info.backend === 'python' && info.pythonProblem)
    body = (
      <>
        {TEXT.broken} {info.pythonProblem}. {TEXT.brokenFix} {cmd} {TEXT.orPyodide}
      </>
    );
  else if (info.backend === 'python')
    body = (
      <>
        {TEXT.python} {TEXT.toPyodide}
      </>
    );
  else if (info.requested === 'pyodide')
    body = (
      <>
        {TEXT.pyodide} {TEXT.pyodideChosen} {cmd}.
      </>
    );
  else
    body = (
      <>
        {TEXT.pyodide} {TEXT.toPython} {cmd} {TEXT.thenRestart}
        {info.pythonProblem && (
          <span className="block">
            {TEXT.why} {info.pythonProblem}.
          </span>
        )}
      </>
    );
  return <p className="text-neutral-600 dark:text-neutral-400">{body}</p>;
}
