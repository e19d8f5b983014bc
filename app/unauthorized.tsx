// Shown when a server action is refused for want of a sign-in (app/actions/guard.ts): sign in again.
import Link from 'next/link';

const TEXT = {
  heading: 'Sign in again',
  body: 'This needs you to be signed in, and this browser’s sign-in is missing or no longer valid.',
  link: 'Go to the sign-in page',
};

export default function Unauthorized() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-3 p-6">
      <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
      <p>{TEXT.body}</p>
      <Link href="/sign-in" className="text-blue-700 underline dark:text-blue-400">
        {TEXT.link}
      </Link>
    </main>
  );
}
