// code_interpreter's two backends behind one interface: CPython in bubblewrap (python-interpreter.ts) and Pyodide
// in a sandboxed Node process (interpreter.ts). Which one runs: CODE_INTERPRETER_BACKEND, 'auto' meaning CPython
// when its interpreter imports numpy, pandas and matplotlib inside a working sandbox.
import { probePython } from './bwrap';
import type { RunOutcome } from './interpreter';

export interface Interpreter {
  readonly alive: boolean;
  readonly pid: number | undefined;
  rss(): number | undefined;
  run(code: string, timeoutMs: number, signal?: AbortSignal): Promise<RunOutcome>;
  kill(): void;
}

export type BackendName = 'python' | 'pyodide';

export interface BackendChoice {
  backend: BackendName;
  requested: 'auto' | 'python' | 'pyodide';
  python: string;
  /** Why the CPython backend cannot run here (when it cannot). */
  pythonProblem?: string;
}

/** The apt command that makes the CPython backend available on Debian and Ubuntu. */
export const PYTHON_BACKEND_INSTALL =
  'apt-get install -y bubblewrap python3-numpy python3-pandas python3-matplotlib python3-openpyxl';

export function chooseBackend(requested: BackendChoice['requested'], python: string): BackendChoice {
  if (requested === 'pyodide') return { backend: 'pyodide', requested, python };
  const probe = probePython(python);
  const pythonProblem = probe.ok ? undefined : probe.reason;
  // Asked for by name, CPython stays chosen when it cannot run: its calls then say why, instead of quietly
  // running somewhere else.
  if (requested === 'python') return { backend: 'python', requested, python, pythonProblem };
  return { backend: probe.ok ? 'python' : 'pyodide', requested, python, pythonProblem };
}
