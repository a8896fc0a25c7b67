/**
 * What a muted member (issue 24 §2) sees instead of writing: the banner at the top of the buble, and
 * the refusal's words in a composer's place. Loaded with the composers, and by the buble's page only
 * while its member is muted: the words need the time helpers.
 */

import { mutedMessage } from '@buble/shared/mute-texts'
import type { ReactNode } from 'react'
import { useMutedHere } from './mention-members.tsx'
import { MUTE_TEXTS } from './mute-texts.ts'

/** The banner at the top of the buble while its member is muted: until when, and what waits. */
export function MutedBanner({ until }: { until: string }) {
  return (
    <div className="alert alert-warning muted-banner" role="status">
      <strong>{mutedMessage(until)}.</strong> {MUTE_TEXTS.bannerHint}
    </div>
  )
}

/** `children` (a composer), or while its member is muted the refusal's words in its place. */
export function UnlessMuted({ children }: { children: ReactNode }) {
  const until = useMutedHere()
  if (!until) return children
  return (
    <p className="muted-note" role="note">
      {mutedMessage(until)}.
    </p>
  )
}
