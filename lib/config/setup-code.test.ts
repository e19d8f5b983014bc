import { afterEach, describe, expect, it } from 'vitest';
import { dropProcessWide } from './process-wide';
import { installSetupCode, setupCodeMatches, setupCodeRequired, spendSetupCode } from './setup-code';

afterEach(() => dropProcessWide('setup-code'));

describe('the setup code', () => {
  it('is not required until the server makes one (a server that serves only its own machine makes none)', () => {
    expect(setupCodeRequired()).toBe(false);
    expect(setupCodeMatches('')).toBe(false);
  });

  it('is made once per process, shown in groups of four, and matched whatever the case, spaces or dashes', () => {
    const code = installSetupCode();
    expect(code).toMatch(/^[2-9A-HJ-NP-TV-Z]{4}-[2-9A-HJ-NP-TV-Z]{4}-[2-9A-HJ-NP-TV-Z]{4}$/);
    expect(installSetupCode()).toBe(code);
    expect(setupCodeRequired()).toBe(true);
    expect(setupCodeMatches(code)).toBe(true);
    expect(setupCodeMatches(` ${code.replaceAll('-', ' ').toLowerCase()} `)).toBe(true);
    expect(setupCodeMatches(code.slice(0, -1))).toBe(false);
    expect(setupCodeMatches('')).toBe(false);
  });

  it('works once', () => {
    const code = installSetupCode();
    spendSetupCode();
    expect(setupCodeRequired()).toBe(false);
    expect(setupCodeMatches(code)).toBe(false);
  });
});
