// The heading of an accounts page (sign-in, create account, API keys, admin) with the Language control beside it:
// the page's language can be switched there, before signing in too.
import { LanguageSelect } from '../language-select';

export function PageHeader({ heading }: { heading: string }) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <h1 className="min-w-0 flex-1 text-xl font-semibold">{heading}</h1>
      <LanguageSelect />
    </header>
  );
}
