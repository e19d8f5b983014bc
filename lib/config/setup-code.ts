// The setup code: when the app is served beyond this machine without ACCESS_TOKEN (accounts on), whoever creates the
// first account becomes its admin, and so could be anyone who reaches the page before its owner. The server makes a
// one-time code when it starts and prints it in its own log (as Jupyter does its token); creating the first account
// needs it, from every address (this machine's too: a reverse proxy's requests come from loopback), until it is used.
// A server serving only this machine makes none: its first account is made as before. Process-wide: the start-up hook
// makes it, the sign-up (lib/auth/accounts.ts) checks it (lib/config/process-wide.ts). Here, beside the exposure
// decision, so that the start-up hook (lib/http) and the accounts (lib/auth) both reach it.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { existingProcessWide, processWide } from './process-wide';

const NAME = 'setup-code';
/** No 0/O, 1/I/L or U: read from a terminal and typed, it cannot be misread. 12 of these: 60 bits. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 12;

interface SetupCode {
  code: string;
  used: boolean;
}

/** Makes this process's setup code (once) and returns it, as the log shows it: XXXX-XXXX-XXXX. */
export function installSetupCode(): string {
  const state = processWide<SetupCode>(NAME, () => {
    let raw = '';
    for (let i = 0; i < LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    return { code: raw, used: false };
  });
  return state.code.match(/.{4}/g)!.join('-');
}

/** Whether creating the first account needs the setup code now (made at start, not used yet). */
export function setupCodeRequired(): boolean {
  const state = existingProcessWide<SetupCode>(NAME);
  return Boolean(state && !state.used);
}

/** The code as typed, made comparable: case, spaces and dashes do not matter. */
function normal(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

const digest = (s: string) => createHash('sha256').update(`agent-studio setup code\n${s}`).digest();

/** Is this the setup code (compared in constant time)? */
export function setupCodeMatches(candidate: string): boolean {
  const state = existingProcessWide<SetupCode>(NAME);
  if (!state || state.used) return false;
  return timingSafeEqual(digest(normal(candidate)), digest(state.code));
}

/** The first account was made with it: it works no more. */
export function spendSetupCode(): void {
  const state = existingProcessWide<SetupCode>(NAME);
  if (state) state.used = true;
}

/** What the server prints at start. */
export function setupCodeNotice(code: string): string {
  return (
    `Setup code for the first account: ${code}\n` +
    `  While no account exists, the Create account page (/sign-up) asks for it: whoever creates the first account ` +
    `is the admin. It works once, and a new one is made at each start.`
  );
}
