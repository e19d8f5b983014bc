import { describe, expect, it } from 'vitest';
import { listServerModels } from './server-models';

describe('listServerModels', () => {
  it('says that fetch refuses a blocked port, instead of "nothing answers" (fetch failed)', async () => {
    // fetch refuses port 6666 before connecting, so nothing needs to listen there.
    const result = await listServerModels('http://127.0.0.1:6666/v1');
    expect(result).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(result.ok ? '' : result.message).toBe(
      'fetch refuses to connect to port 6666 (a port browsers block too): run the server on another port.',
    );
  });
});
