/** The policy facts of spec part 2 §1, and the lifetimes the privacy page states (kept beside the rules that set them). */

import { DELETION_GRACE_DAYS } from '@buble/shared/constants'
import { STORY_LIFETIME_MS } from '@buble/shared/wall'

export const PRIVACY_FACTS = {
  /** Spec part 2 §1: minimum age 13. */
  minimumAge: 13,
  /** Spec part 2 §1: personal data removed within 30 days of account deletion. */
  removalDays: 30,
  deletionGraceDays: DELETION_GRACE_DAYS,
  storyHours: STORY_LIFETIME_MS / (60 * 60 * 1000),
  /** The server's sync bookkeeping (api/src/features/sync/maintenance.ts: SYNC_RETENTION_MS). */
  syncRecordDays: 90,
} as const
