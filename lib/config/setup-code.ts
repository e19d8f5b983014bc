// The setup code: when the app is served beyond this machine without ACCESS_TOKEN (accounts on), whoever creates the
// first account becomes its admin, and so could be anyone who reaches the page before its owner. The server makes a
// one-time code when it starts and prints it in its own log (as Jupyter does its token); creating the first account
// needs it, from every address (this machine's too: a reverse proxy's requests come from loopback), until it is used.
// A server serving only this machine makes none: its first account is made as before. A SetupCode holds one; the
// server's is process-wide (serverSetupCode): the start-up hook (instrumentation.ts, lib/http) makes it and the
// accounts the app's root builds (lib/auth/accounts.ts) check it, and Next may load those two in different module
// instances. Here, beside the exposure decision, so that lib/http and lib/auth both reach it.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { processWide } from './process-wide';

/** No 0/O, 1/I/L or U: read from a terminal and typed, it cannot be misread. 12 of these: 60 bits. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 12;

/** The code as typed, made comparable: case, spaces and dashes do not matter. */
function normal(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

const digest = (s: string) => createHash('sha256').update(`agent-studio setup code\n${s}`).digest();

/** A server's setup code: none until made (a server serving only this machine makes none), then good once. */
export class SetupCode {
  private made?: { code: string; used: boolean };

  /** Makes the code (once) and returns it, as the log shows it: XXXX-XXXX-XXXX. */
  install(): string {
    if (!this.made) {
      let raw = '';
      for (let i = 0; i < LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
      this.made = { code: raw, used: false };
    }
    return this.made.code.match(/.{4}/g)!.join('-');
  }

  /** Whether creating the first account needs the code now (made, not used yet). */
  required(): boolean {
    return Boolean(this.made && !this.made.used);
  }

  /** Is this the code (compared in constant time)? */
  matches(candidate: string): boolean {
    if (!this.made || this.made.used) return false;
    return timingSafeEqual(digest(normal(candidate)), digest(this.made.code));
  }

  /** The first account was made with it: it works no more. */
  spend(): void {
    if (this.made) this.made.used = true;
  }
}

/** The server process's code: one per process, as the log it is printed in. */
export function serverSetupCode(): SetupCode {
  return processWide('server-setup-code', () => new SetupCode());
}

/** What the server prints at start. */
export function setupCodeNotice(code: string): string {
  return (
    `Setup code for the first account: ${code}\n` +
    `  While no account exists, the Create account page (/sign-up) asks for it: whoever creates the first account ` +
    `is the admin. It works once, and a new one is made at each start.`
  );
}
