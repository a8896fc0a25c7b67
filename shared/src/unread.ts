/** Unread counters (spec part 2 §3, CONTRACT §3.2 and §6): what others added since the member last read a tab. */

import { z } from 'zod'

// 'reports' (issue 24 §1) counts new reports, for members holding moderate_content only.
export const CONTENT_TYPES = ['wall', 'events', 'polls', 'members', 'chat', 'reports'] as const
export type ContentType = (typeof CONTENT_TYPES)[number]

/** Counts stop here: a tab shows '99+' beyond it, and counting never reads more rows than this. */
export const UNREAD_CAP = 100

export const ContentTypeSchema = z.enum(CONTENT_TYPES)

export const UnreadCounter = z.object({
  contentType: ContentTypeSchema,
  unreadCount: z.number().int().min(0),
  /** Present (true) while the tab holds a mention of the member they have not read (decision 94): its `@` mark. */
  mentioned: z.literal(true).optional(),
})
export type UnreadCounter = z.infer<typeof UnreadCounter>

export const ReadBody = z.object({ contentType: ContentTypeSchema })
export type ReadBody = z.infer<typeof ReadBody>

/** How a counter reads on a tab: nothing at zero, '99+' at the cap. */
export const unreadLabel = (count: number): string | null =>
  count <= 0 ? null : count >= UNREAD_CAP ? `${UNREAD_CAP - 1}+` : String(count)

/**
 * The one rule for "how much is unread" (home cards, the page title, the app badge): every
 * counter added up, each at most the cap; rows without a count are nothing.
 */
export const totalUnread = (counters: readonly { unreadCount?: unknown }[]): number =>
  counters.reduce<number>((sum, row) => {
    const count = Number(row.unreadCount)
    return sum + (Number.isFinite(count) && count > 0 ? Math.min(Math.floor(count), UNREAD_CAP) : 0)
  }, 0)
