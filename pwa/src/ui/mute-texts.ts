/** The PWA's words around muting (issue 24 §2); the refusal itself is shared/mute-texts.ts `mutedMessage`. */

import { MUTE_DURATION_LABELS, MUTE_MESSAGES } from '@buble/shared/mute-texts'

export const MUTE_TEXTS = {
  bannerHint: 'You can still read everything here; posts, comments, chat, reactions, RSVPs and votes wait until then.',
  durations: MUTE_DURATION_LABELS,
  muteSection: 'Mute',
  muteHint: 'A muted member can read but cannot post, comment, chat, react, answer events or vote.',
  durationLabel: 'Mute for',
  muteButton: 'Mute',
  unmuteButton: 'Unmute',
  muted: MUTE_MESSAGES.muted,
  unmuted: MUTE_MESSAGES.unmuted,
  mutedBadge: 'Muted',
  /** Beside a muted member: 'Muted until Sat 29 Nov, 19:00 CET' or 'Muted until unmuted'. */
  mutedUntil: (end: string | null) => (end === null ? 'Muted until unmuted' : `Muted until ${end}`),
} as const
