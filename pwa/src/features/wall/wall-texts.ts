/** What the wall says when something goes wrong on the screen itself (spec part 2 §8). */
export const WALL_TEXTS = {
  createPost: 'Failed to create post',
  updatePost: 'Failed to update post',
  createComment: 'Failed to create comment',
  updateComment: 'Failed to update comment',
  tickerEmpty: 'No updates yet • Be the first to share something!',
  pinned: 'Pinned',
  pin: 'Pin to top',
  unpin: 'Unpin',
  pinnedTitle: 'Pinned posts',
} as const
