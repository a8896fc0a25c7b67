/** What the Media tab says (issue 23 §5), in the spec's tone. */
export const MEDIA_TEXTS = {
  title: 'Media',
  loading: 'Loading media…',
  loadingMore: 'Loading more…',
  loadMore: 'Load more',
  failed: 'Failed to load media',
  emptyTitle: 'No photos or videos yet',
  empty: 'Images and videos shared on the wall, in the chat and in stories show up here.',
  offline: 'You are offline. Showing the photos and videos saved on this device.',
  offlineEmpty: 'You are offline, and no photos or videos of this Buble are saved on this device.',
  viewer: 'Media viewer',
  previous: 'Previous',
  next: 'Next',
  close: 'Close',
  video: 'Video',
  position: (n: number, of: number) => `${n} of ${of}`,
  from: { post: 'a post', chat: 'the chat', story: 'a story' },
} as const

/** A tile's and the viewer's accessible name: what it is, from whom, and where it was shared. */
export const mediaLabel = (item: { media_type: string; author: { name: string }; source: 'post' | 'chat' | 'story' }) =>
  `${item.media_type === 'video' ? 'Video' : 'Photo'} by ${item.author.name} in ${MEDIA_TEXTS.from[item.source]}`
