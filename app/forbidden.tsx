// Shown for a 403 (app/actions/guard.ts): a page or action only the admin may use, a disabled account, or a request
// the checks refused.
import Link from 'next/link';

const TEXT = {
  heading: 'Not allowed',
  body: 'This is not open to you: it is for the admin of this Agent Studio, or your account is disabled.',
  link: 'Back to the chat',
};

export default function Forbidden() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-3 p-6">
      <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
      <p>{TEXT.body}</p>
      <Link href="/" className="text-blue-700 underline dark:text-blue-400">
        {TEXT.link}
      </Link>
    </main>
  );
}
