import { appInfo } from '@/app/actions/chat';
import { ChatApp } from '@/components/chat/chat-app';

export const dynamic = 'force-dynamic';

// The conversation in the address (`?c=`) is read by the page in the browser (components/chat/conversation-address.ts).
export default async function Home() {
  return <ChatApp info={await appInfo()} />;
}
