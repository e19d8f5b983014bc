import { appInfo } from '@/app/actions/chat';
import { ChatApp } from '@/components/chat/chat-app';

export const dynamic = 'force-dynamic';

export default async function Home({ searchParams }: { searchParams: Promise<{ c?: string }> }) {
  const [info, params] = await Promise.all([appInfo(), searchParams]);
  return <ChatApp info={info} initialConversationId={params.c} />;
}
