// POST /api/sign-in: the access-token sign-in form's target (wiring only; see lib/http/sign-in.ts). Before anyone is
// signed in, so it resolves no user.
import { requestPolicy } from '@/lib/http/policy';
import { handleSignIn } from '@/lib/http/sign-in';
import { appConfig } from '@/lib/server/app-config';
import { publicRoute } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = publicRoute('POST /api/sign-in', (request: Request) =>
  handleSignIn(request, requestPolicy(appConfig().http)),
);
