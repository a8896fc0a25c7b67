/**
 * A buble's media (issue 23 §5): every image and video of its posts, chat messages and current
 * stories, newest first, paged by a cursor (`GET /api/bubles/:id/media?before=&limit=`).
 */

import { z } from 'zod'
import type { MemberRef } from './bubles.ts'
import type { MEDIA_TYPES } from './wall.ts'

export const MEDIA_PAGE_SIZE = 24
export const MEDIA_MAX_PAGE_SIZE = 60

/** Where an item of the gallery was shared. */
export const MEDIA_SOURCES = ['post', 'chat', 'story'] as const
export type MediaSource = (typeof MEDIA_SOURCES)[number]

/** One image or video of the gallery; `url` is its secure upload address (it needs the session). */
export interface MediaItem {
  /** `<source>:<source_id>`: unique in the gallery. */
  id: string
  source: MediaSource
  source_id: string
  media_type: (typeof MEDIA_TYPES)[number]
  url: string
  author: MemberRef
  created_at: string
}

/** A page of the gallery: `next` is the `before` of the next page, null after the oldest. */
export interface MediaPage {
  items: MediaItem[]
  next: string | null
}

// `<created_at>~<source_id>`, the gallery's order; the time keeps the database's microseconds, so
// rows made in one millisecond still have theirs.
const CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,6}Z)~([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i

/** `before`: a cursor the previous page answered, read back into its time and id. */
export const MediaCursor = z
  .string()
  .max(80)
  .refine((value) => CURSOR.test(value) && !Number.isNaN(Date.parse(value.split('~')[0] ?? '')), {
    error: 'before must be a cursor a previous page answered',
  })
  .transform((value) => {
    const [at = '', id = ''] = value.split('~')
    return { at, id: id.toLowerCase() }
  })

export const MediaQuery = z.object({
  before: MediaCursor.optional(),
  limit: z.coerce.number().int().min(1).max(MEDIA_MAX_PAGE_SIZE).default(MEDIA_PAGE_SIZE),
})
export type MediaQuery = z.infer<typeof MediaQuery>
