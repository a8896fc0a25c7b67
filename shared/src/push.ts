/** Web Push (CONTRACT §5): the subscription calls, the push preferences, and the payload a push carries. */

import { z } from 'zod'
import type { ContentType } from './unread.ts'

const MAX_ENDPOINT = 2048

export const PushSubscriptionBody = z.object({
  endpoint: z.string().min(1).max(MAX_ENDPOINT),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
})
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>

export const PushUnsubscribeBody = z.object({ endpoint: z.string().min(1).max(MAX_ENDPOINT) })
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBody>

/** The profile's global switch and the bubles the caller muted. */
export const PushPreferences = z.object({ enabled: z.boolean(), muted: z.array(z.string()) })
export type PushPreferences = z.infer<typeof PushPreferences>

export const PushEnabledBody = z.object({ enabled: z.boolean() })
export type PushEnabledBody = z.infer<typeof PushEnabledBody>

export const PushMuteBody = z.object({ muted: z.boolean() })
export type PushMuteBody = z.infer<typeof PushMuteBody>

export const PushMute = z.object({ buble_id: z.string(), muted: z.boolean() })
export type PushMute = z.infer<typeof PushMute>

/** What a push carries (CONTRACT §5): the service worker badges the sum of `unread` and may notify. */
export interface UnreadPush {
  type: 'unread'
  buble_id: string
  buble_name: string
  contentType: ContentType
  title: string
  body: string
  /** The tab the notification opens: `/bubles/<slug>/<tab>`. */
  url: string
  unread: Record<ContentType, number>
}
