// Who a chat use case acts for: whose objects it may touch (the owner scope every store call takes) and which tools
// they may offer the model. The composition root makes one per request from the signed-in user (lib/auth); tests
// and scripts make one for an owner with everyAllowed.
import type { OwnerScope } from '../store/owner';

export interface Actor {
  readonly owner: OwnerScope;
  /** Why this actor may not offer `tool` to the model (the admin has not enabled it for users), or undefined. */
  toolRefusal(tool: string): string | undefined;
}

/** An actor that may use every tool: the single user of an app without accounts, an admin, a test. */
export function everyToolActor(owner: OwnerScope): Actor {
  return { owner, toolRefusal: () => undefined };
}
