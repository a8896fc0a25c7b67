/** What the chat says (spec part 2 §2, §8). */
export const CHAT_TEXTS = {
  loadMessages: 'Failed to load messages',
  sendMessage: 'Failed to send message',
  editMessage: 'Failed to edit message',
  deleteMessage: 'Failed to delete message',
  empty: 'No messages yet',
  emptyHint: 'Say hello to your Buble!',
} as const
