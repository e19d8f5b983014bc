// Next runs register() once when the server starts, before it answers any request (Node runtime only).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startupProblem } = await import('./lib/http/startup');
  const problem = startupProblem();
  if (problem) {
    console.error(`\n${problem}\n`);
    process.exit(1);
  }
  const { installPeerStamp } = await import('./lib/http/peer');
  installPeerStamp();
}
