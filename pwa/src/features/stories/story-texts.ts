/** What the stories widget says (spec part 2 §8), and the files it takes (CONTRACT §3.3). */
export const STORY_TEXTS = {
  loadFailed: 'Failed to load stories',
  uploadFailed: 'Upload failed',
  createFailed: 'Failed to upload story',
  offline: 'Stories can be shared when you are online.',
  notSynced: 'Stories can be shared once this Buble has reached the server.',
  wrongType: 'Choose a JPEG, PNG, WebP or GIF image, or an MP4 or WebM video',
  imageTooLarge: 'The image must be 10 MB or smaller',
  videoTooLarge: 'The video must be 50 MB or smaller',
  deleteFailed: 'Failed to delete story',
  deleteOffline: 'Stories can be deleted when you are online.',
} as const

export const STORY_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const
export const STORY_VIDEO_TYPES = ['video/mp4', 'video/webm'] as const
