// Next runs register() once when the server starts, before it answers any request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServerChecks } = await import('./lib/http/startup');
    startServerChecks();
  }
}
