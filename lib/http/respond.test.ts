import { describe, expect, it, vi } from 'vitest';
import { isErrorNamed } from '../protocol/errors';
import { errorResponse } from './respond';

/** The classes of a module as another bundle of the server has them: the same file, loaded again. */
async function anotherBundle<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

describe('errors across bundles', () => {
  it('a NotFoundError made by another copy of its module is not instanceof this one, yet answers 404 with its code', async () => {
    const here = await import('../store/errors');
    const there = await anotherBundle(() => import('../store/errors'));
    const e = new there.NotFoundError('This conversation no longer exists.', 'conversation-gone');
    expect(e instanceof here.NotFoundError).toBe(false); // what made the files routes answer 500
    expect(isErrorNamed(e, 'NotFoundError')).toBe(true);
    const answer = errorResponse(e, 'a test');
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({
      error: { message: 'This conversation no longer exists.', code: 'conversation-gone' },
    });
  });

  it('an upload refusal and a rate limit of another copy keep their status', async () => {
    const uploads = await anotherBundle(() => import('../uploads/service'));
    expect(errorResponse(new uploads.UploadError('This document no longer exists.', 404), 'x').status).toBe(404);
    const limits = await anotherBundle(() => import('./rate-limit'));
    const limited = errorResponse(new limits.RateLimitError('too-many-runs', 'Too many runs at once', 5), 'x');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '5']);
  });

  it('an unexpected error is a 500 with an id; its message and stack (the server’s paths) stay in the log', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const answer = errorResponse(new Error('ENOENT: /srv/agent-studio/.next/server/chunks/x.js'), 'GET /api/x');
    const body = (await answer.json()) as { error: { message: string; id: string } };
    expect(answer.status).toBe(500);
    expect(body.error.message).toBe(
      `Something went wrong on the server (error id ${body.error.id}); its log says what.`,
    );
    expect(JSON.stringify(body)).not.toContain('/srv');
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(new RegExp(`^\\[error ${body.error.id}\\] GET /api/x: Error: ENOENT: /srv/`)),
    );
    log.mockRestore();
  });
});
