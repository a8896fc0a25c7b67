/** What the chat says (spec part 2 §2, §8; the rest is the chat's own, decision 84). */
export const CHAT_TEXTS = {
  loadMessages: 'Failed to load messages',
  sendMessage: 'Failed to send message',
  editMessage: 'Failed to edit message',
  deleteMessage: 'Failed to delete message',
  empty: 'No messages yet',
  emptyHint: 'Say hello to your Buble!',
  /** The user among those who reacted. */
  you: 'You',
  /** Someone who reacted and has since left the buble. */
  formerMember: 'A former member',
  captionPlaceholder: 'Add a caption…',
  messagePlaceholder: 'Write a message…',
  imagePreviewHint: 'Add a caption below, or send it as it is.',
  imageSending: 'Sending image…',
  /** The message's text to the clipboard (a long press shows the actions instead of the browser's menu). */
  copy: 'Copy',
  copied: 'Copied!',
} as const
