// What fits in one server action's body, checked in the browser before sending (a file picked for an import):
// Next stops reading a larger body and the action fails with a 500 the page cannot put in words.
import settings from './settings.json';

/** The most a server action's body may be, in bytes (next.config.js gives Next the same number). */
export const ACTION_BODY_MAX_BYTES: number = settings.messageBodyBytes;

/** Room for what Next and React send around the arguments (the array, a "$" before a string that starts with one). */
const FRAMING_BYTES = 1024;

/** Whether these arguments, as a server action sends them (their JSON, in UTF-8), fit under the limit. */
export function fitsActionBody(...args: unknown[]): boolean {
  return new TextEncoder().encode(JSON.stringify(args)).length + FRAMING_BYTES <= ACTION_BODY_MAX_BYTES;
}

/** The limit in megabytes, as the page says it ("at most 1 MB"). */
export const ACTION_BODY_MAX_MB = Math.round((ACTION_BODY_MAX_BYTES / 1024 / 1024) * 10) / 10;
