import { describe, expect, it } from 'vitest';
import { SetupCode, serverSetupCode } from './setup-code';

// Each test makes its own code: nothing of the process's is made or reset here.
describe('the setup code', () => {
  it('is not required until the server makes one (a server that serves only its own machine makes none)', () => {
    const setup = new SetupCode();
    expect(setup.required()).toBe(false);
    expect(setup.matches('')).toBe(false);
  });

  it('is made once, shown in groups of four, and matched whatever the case, spaces or dashes', () => {
    const setup = new SetupCode();
    const code = setup.install();
    expect(code).toMatch(/^[2-9A-HJ-NP-TV-Z]{4}-[2-9A-HJ-NP-TV-Z]{4}-[2-9A-HJ-NP-TV-Z]{4}$/);
    expect(setup.install()).toBe(code);
    expect(setup.required()).toBe(true);
    expect(setup.matches(code)).toBe(true);
    expect(setup.matches(` ${code.replaceAll('-', ' ').toLowerCase()} `)).toBe(true);
    expect(setup.matches(code.slice(0, -1))).toBe(false);
    expect(setup.matches('')).toBe(false);
    expect(new SetupCode().matches(code)).toBe(false); // another server's code is not this one's
  });

  it('works once', () => {
    const setup = new SetupCode();
    const code = setup.install();
    setup.spend();
    expect(setup.required()).toBe(false);
    expect(setup.matches(code)).toBe(false);
  });

  it("the server's is one per process: the start-up hook and the sign-up find the same", () => {
    expect(serverSetupCode()).toBe(serverSetupCode());
    expect(serverSetupCode().required()).toBe(false); // made only when the start-up hook says so
  });
});
