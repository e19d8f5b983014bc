// zod, configured once for every schema of ours (import { z } from here, not from 'zod'): jitless, so no schema
// compiles code with `new Function`. The page runs under a CSP without 'unsafe-eval', where zod's probe for it is
// itself reported as a violation; parsing is not on a hot path, so the interpreted parser costs nothing that shows.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
