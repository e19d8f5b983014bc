// A model call's text kept back instead of streamed as it comes: the agent reads it whole and says what it makes
// of it (a GroupChat host's pick, a GroupChatCreator's configuration, a simulated user's question). The inspector
// shows it as the call's raw response.
import type { TextSink } from './agent';

export class HeldText implements TextSink {
  text = '';
  push(text: string): void {
    this.text += text;
  }
  end(): void {}
  withheld(): string {
    return this.text;
  }
}
