// /api/auth/*: creating an account, signing in and out, OpenID Connect (wiring only; see lib/auth/http.ts). These
// establish who the user is, so they resolve none first; they are behind the Host and Origin checks like the rest.
import { accountFormPost } from '@/lib/auth/form-post';
import { handleAuthRequest } from '@/lib/auth/http';
import { appContext } from '@/lib/server/context';
import { publicRoute } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

async function handle(request: Request): Promise<Response> {
  const ctx = await appContext();
  const json = (r: Request) => handleAuthRequest(r, ctx.accounts, ctx.auth);
  // The account pages' forms, posted before (or without) their scripts: answered as redirects.
  return (await accountFormPost(request, json)) ?? json(request);
}

export const GET = publicRoute('GET /api/auth/[...all]', handle);
export const POST = publicRoute('POST /api/auth/[...all]', handle);
