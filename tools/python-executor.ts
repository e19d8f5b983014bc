// `python_executor`: Qwen-Agent's stateless Python runner (what TIRMathAgent executes its ```python blocks with).
// Upstream runs the code in a pool of unsandboxed worker processes and leaves the tool unregistered for that reason;
// here each call gets a fresh interpreter in code_interpreter's sandbox (lib/sandbox: no network, nothing outside a
// work directory of its own, which is deleted afterwards), so nothing persists from one call to the next.
//
// The result keeps upstream's shape: a pair [result, report]. `result` is what the code printed (or, with
// get_answer_from_stdout false, the value of its last expression), stripped and cut to 256 characters keeping both
// ends; `report` is "Done", the last line of the error's traceback, or "Timeout Error".
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { RunOutcome } from '../lib/sandbox/interpreter';
import { BaseTool, FailedToolOutput, type ToolContext } from './base-tool';
import { extractCode } from './code-interpreter';
import { registerTool } from './registry';
import { settingsOf } from './settings';

export const PYTHON_EXECUTOR = 'python_executor';

/** Upstream's cut: at most this many characters of a result or report, half from each end. */
export const MAX_RESULT_CHARS = 256;
/** Upstream's default time limit per call, in seconds (cfg.timeout_length). */
const DEFAULT_TIMEOUT_S = 20;

/** `s` within `max` characters: its two ends joined by "...", as upstream cuts results. */
export function cutMiddle(s: string, max = MAX_RESULT_CHARS): string {
  if (s.length <= max) return s;
  const half = Math.floor(max / 2);
  return `${s.slice(0, half)}...${s.slice(-half)}`;
}

/** The last non-empty line of a traceback ("ZeroDivisionError: division by zero"). */
function lastLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim());
  return lines[lines.length - 1] ?? text;
}

export class PythonExecutor extends BaseTool {
  name = PYTHON_EXECUTOR;
  description =
    'Runs Python code and returns what it printed. Each call starts from a fresh interpreter: nothing (variables, ' +
    'imports, files) is kept between calls, so print the values you need. There is no network.';
  parameters = {
    type: 'object',
    properties: { code: { type: 'string', description: 'The Python code to run.' } },
    required: ['code'],
  };

  /** Accepts a fenced code block or bare code as well as {"code": ...}, as upstream does. */
  override parseArgs<T = Record<string, unknown>>(params: string | Record<string, unknown>): T {
    return extractCode(params) as T;
  }

  /** cfg.timeout_length (seconds, upstream's name), else 20. */
  get timeoutMs(): number {
    const s = this.cfg.timeout_length;
    return (typeof s === 'number' && s > 0 ? s : DEFAULT_TIMEOUT_S) * 1000;
  }

  /** The pair; code that raised or ran out of time gives it as a failed call (the trace says so, the model reads the
   *  same pair). */
  async call(params: string, ctx: ToolContext): Promise<[string, string] | FailedToolOutput> {
    const { code } = extractCode(params);
    if (!code.trim()) return ['', ''];
    const { sandbox, dataDir } = settingsOf(ctx);
    const { pool } = await sandbox.interpreters();
    // A directory and an interpreter of its own for this call only: the key is never used again.
    const workDir = path.join(dataDir, 'work', PYTHON_EXECUTOR, randomUUID());
    try {
      const outcome = await pool.run(workDir, { workDir, code, timeoutMs: this.timeoutMs, signal: ctx.signal });
      const { outcomeFailure } = await import('../lib/sandbox/format');
      const failure = outcomeFailure(outcome);
      return failure ? new FailedToolOutput(this.shape(outcome), failure) : this.shape(outcome);
    } finally {
      pool.drop(workDir);
      await rm(workDir, { recursive: true, force: true });
    }
  }

  private shape(outcome: RunOutcome): [string, string] {
    let result = '';
    let report: string;
    switch (outcome.kind) {
      case 'timeout':
        report = 'Timeout Error';
        break;
      case 'memory':
        report = `MemoryError: the code used more memory than the sandbox allows (about ${outcome.limitMb} MB)`;
        break;
      case 'crashed':
        report = `The interpreter stopped unexpectedly: ${outcome.message}`;
        break;
      case 'done':
        if (outcome.error) report = lastLine(outcome.error);
        else {
          report = 'Done';
          result = this.cfg.get_answer_from_stdout === false ? (outcome.result ?? '') : outcome.stdout.text;
        }
        break;
    }
    return [cutMiddle(result.trim()), cutMiddle(report.trim())];
  }
}

registerTool(PYTHON_EXECUTOR)(PythonExecutor);
