import type { ReactionType } from '@buble/shared/wall'

/** What the wall says when something goes wrong on the screen itself (spec part 2 §8). */
export const WALL_TEXTS = {
  uploadFailed: 'Upload failed',
  createPost: 'Failed to create post',
  updatePost: 'Failed to update post',
  createComment: 'Failed to create comment',
  updateComment: 'Failed to update comment',
  imageOffline: 'Images can be added when you are online.',
  imageNotSynced: 'Images can be added once this Buble has reached the server.',
  imageType: 'Choose a JPEG, PNG, WebP or GIF image',
  imageTooLarge: 'The image must be 10 MB or smaller',
  tickerEmpty: 'No updates yet • Be the first to share something!',
} as const

/** Each reaction as the picker shows it: an emoji, and the word a screen reader says. */
export const REACTIONS: Readonly<Record<ReactionType, { emoji: string; label: string }>> = {
  like: { emoji: '👍', label: 'Like' },
  love: { emoji: '❤️', label: 'Love' },
  laugh: { emoji: '😂', label: 'Laugh' },
  wow: { emoji: '😮', label: 'Wow' },
  sad: { emoji: '😢', label: 'Sad' },
  angry: { emoji: '😠', label: 'Angry' },
}

/** The image types the server takes for posts (CONTRACT §3.3). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const
