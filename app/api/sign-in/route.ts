// POST /api/sign-in: the sign-in form's target (wiring only; see lib/http/sign-in.ts).
import { requestPolicy } from '@/lib/http/policy';
import { guardRoute } from '@/lib/http/respond';
import { handleSignIn } from '@/lib/http/sign-in';

export const dynamic = 'force-dynamic';

export const POST = guardRoute((request: Request) => handleSignIn(request, requestPolicy()), 'sign-in');
