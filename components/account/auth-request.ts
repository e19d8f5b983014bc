// The account pages' calls to /api/auth (lib/auth/http.ts): JSON in, JSON out, errors as {error: {message}}.
export interface AuthAnswer<T> {
  ok: boolean;
  status: number;
  /** The server's reason when not ok. */
  message: string;
  data?: T;
}

const TEXT = {
  unreachable: 'The server could not be reached. Check the connection and try again.',
  failed: (status: number) => `The server answered ${status}.`,
};

export async function authRequest<T = unknown>(path: string, body: unknown = {}): Promise<AuthAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(`/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: TEXT.unreachable };
  }
  const data = (await res.json().catch(() => undefined)) as (T & { error?: { message?: string } }) | undefined;
  if (res.ok) return { ok: true, status: res.status, message: '', data };
  return { ok: false, status: res.status, message: data?.error?.message ?? TEXT.failed(res.status) };
}
