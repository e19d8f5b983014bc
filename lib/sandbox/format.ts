// A run's outcome as Qwen-Agent's code_interpreter shapes it for the model: "stdout:", "stderr:",
// "execute_result:" and "error:" sections, each a fenced block; "Finished execution." when there is nothing.
import type { ErrorCode } from '../protocol/errors';
import type { CapturedStream, RunOutcome } from './interpreter';

export const TIMEOUT_MESSAGE = 'Timeout: Code execution exceeded the time limit.';
export const FINISHED_MESSAGE = 'Finished execution.';
export const RESTARTED =
  'The interpreter was restarted: variables and imports are gone; files in the working directory remain.';

function section(name: string, text: string): string {
  return `${name}:\n\n\`\`\`\n${text.replace(/\n$/, '')}\n\`\`\``;
}

function withCut(stream: CapturedStream): string {
  return stream.cut > 0 ? `${stream.text}\n[… output cut: ${stream.cut} more characters not shown]` : stream.text;
}

function crashMessage(why: string): string {
  return `The code interpreter stopped unexpectedly: ${why}.`;
}

function memoryMessage(limitMb: number): string {
  return `MemoryError: the code used more memory than the sandbox allows (about ${limitMb} MB).`;
}

/** Whether the code failed (raised, did not parse, ran out of time or memory, or the interpreter died), and how: what
 *  the page shows of the failure; the model reads it in formatOutcome's text. */
export function outcomeFailure(outcome: RunOutcome): { type: string; message: string; code?: ErrorCode } | undefined {
  switch (outcome.kind) {
    case 'timeout':
      return { type: 'Timeout', message: TIMEOUT_MESSAGE, code: 'tool-timeout' };
    case 'memory':
      return { type: 'MemoryError', message: memoryMessage(outcome.limitMb) };
    case 'crashed':
      return { type: 'InterpreterCrashed', message: crashMessage(outcome.message) };
    case 'done': {
      if (!outcome.error) return undefined;
      const lines = outcome.error.split('\n').filter((l) => l.trim());
      return { type: outcome.errorName ?? 'Error', message: lines.at(-1)?.trim() ?? outcome.errorName ?? 'Error' };
    }
  }
}

export function formatOutcome(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case 'timeout':
      return `${section('error', TIMEOUT_MESSAGE)}\n\nThe limit is ${outcome.timeoutMs / 1000} s. ${RESTARTED}`;
    case 'memory':
      return `${section('error', memoryMessage(outcome.limitMb))}\n\n${RESTARTED}`;
    case 'crashed':
      return `${section('error', crashMessage(outcome.message))}\n\n${RESTARTED}`;
    case 'done': {
      const parts: string[] = [];
      if (outcome.stdout.text || outcome.stdout.cut) parts.push(section('stdout', withCut(outcome.stdout)));
      if (outcome.stderr.text || outcome.stderr.cut) parts.push(section('stderr', withCut(outcome.stderr)));
      if (outcome.result !== null) parts.push(section('execute_result', outcome.result));
      if (outcome.error) {
        const memory =
          outcome.errorName === 'MemoryError'
            ? '\n\nThe code ran out of the memory the sandbox allows; the interpreter is still usable.'
            : '';
        parts.push(section('error', outcome.error) + memory);
      }
      if (outcome.diskFullMb !== undefined)
        parts.push(
          `The working directory is full: its files may take at most ${outcome.diskFullMb} MB ` +
            '(CODE_INTERPRETER_DISK_MB), so the write that would have passed that failed and was not written. ' +
            'Delete files you no longer need, or write less.',
        );
      return parts.length ? parts.join('\n\n') : FINISHED_MESSAGE;
    }
  }
}
