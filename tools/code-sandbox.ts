// The sandbox code_interpreter and python_executor run Python in, for one configuration (CODE_INTERPRETER_*): which
// backend runs here (CPython in bubblewrap, or Pyodide) and the pool of warm interpreters. Made once by whoever makes
// the tool settings (tools/settings.ts), so a process that makes them once has one pool. The sandbox modules load
// with the first call, not with the tool (an agent offered code_interpreter may never run it).
import type { CodeInterpreterConfig } from '../lib/config';
import type { BackendChoice, BackendName } from '../lib/sandbox/backend';
import type { InterpreterPool } from '../lib/sandbox/pool';

export interface CodeInterpreterInfo extends BackendChoice {
  /** The apt command that makes the CPython backend available. */
  install: string;
}

export class CodeSandbox {
  private choice?: BackendChoice;
  private pool?: InterpreterPool;
  private starting?: Promise<InterpreterPool>;

  constructor(readonly config: CodeInterpreterConfig) {}

  /**
   * Which backend runs code_interpreter here, and why the other one does not (for Settings and the tool). Loads the
   * sandbox's backend module; the probe behind it runs once per interpreter path and process.
   */
  async backend(): Promise<BackendChoice> {
    const { chooseBackend } = await import('../lib/sandbox/backend');
    this.choice = chooseBackend(this.config.backend, this.config.python);
    return this.choice;
  }

  /** The backend if it is known without probing (or was probed already): the description says what it knows. */
  knownBackend(): BackendName | undefined {
    return this.config.backend === 'pyodide' ? 'pyodide' : this.choice?.backend;
  }

  /** What Settings says about the backend. */
  async info(): Promise<CodeInterpreterInfo> {
    const { PYTHON_BACKEND_INSTALL } = await import('../lib/sandbox/backend');
    return { ...(await this.backend()), install: PYTHON_BACKEND_INSTALL };
  }

  /**
   * The backend chosen and the interpreter pool (made on first use; python_executor runs its one-off interpreters
   * there too). Throws, saying how to fix it, when the CPython backend was asked for by name and cannot run here.
   */
  async interpreters(): Promise<{ choice: BackendChoice; pool: InterpreterPool }> {
    const choice = await this.backend();
    const { PYTHON_BACKEND_INSTALL } = await import('../lib/sandbox/backend');
    if (choice.backend === 'python' && choice.pythonProblem)
      throw new Error(
        `code_interpreter is set to the Python backend (CODE_INTERPRETER_BACKEND=python), which cannot run here: ` +
          `${choice.pythonProblem}. On Debian: ${PYTHON_BACKEND_INSTALL}`,
      );
    this.starting ??= this.makePool(choice).then((pool) => (this.pool = pool));
    return { choice, pool: await this.starting };
  }

  /** The pool, if a call has started it (measurements, tests). */
  get currentPool(): InterpreterPool | undefined {
    return this.pool;
  }

  /** Stops every interpreter; the next call starts a new pool. */
  shutdown(): void {
    this.pool?.shutdown();
    this.pool = this.starting = undefined;
  }

  private async makePool(choice: BackendChoice): Promise<InterpreterPool> {
    const { InterpreterPool } = await import('../lib/sandbox/pool');
    const c = this.config;
    const startInterpreter =
      choice.backend === 'python'
        ? async (workDir: string) => {
            const { CPythonInterpreter } = await import('../lib/sandbox/python-interpreter');
            return CPythonInterpreter.start({
              workDir,
              python: c.python,
              memoryMb: c.memoryMb,
              outputChars: c.outputChars,
              diskMb: c.diskMb,
            });
          }
        : undefined;
    return new InterpreterPool({
      memoryMb: c.memoryMb,
      diskMb: c.diskMb,
      jsHeapMb: c.jsHeapMb,
      outputChars: c.outputChars,
      packagesDir: c.packagesDir,
      networkNamespace: c.networkNamespace,
      maxInterpreters: c.maxInterpreters,
      idleMs: c.idleMs,
      startInterpreter,
    });
  }
}
