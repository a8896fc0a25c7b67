/**
 * The signed-in member's mute in the buble on screen (issue 24 §2), given once around the buble's
 * page: the banner says until when, and composers give way to the same words while it lasts. It
 * reads the device's own member row, so it holds offline.
 */

import { createContext, type ReactNode, useContext } from 'react'
import { type MuteState, useOwnMute } from '../data/mutes.ts'
import { MUTE_TEXTS } from './mute-texts.ts'

const OwnMuteContext = createContext<MuteState | null>(null)

/** Gives the signed-in member's mute in `bubleId` to the banner and composers inside. */
export function OwnMute({ bubleId, children }: { bubleId: string; children: ReactNode }) {
  const mute = useOwnMute(bubleId) ?? null
  return <OwnMuteContext.Provider value={mute}>{children}</OwnMuteContext.Provider>
}

/** The mute in force here, or null (also outside an `OwnMute`). */
export const useMutedHere = (): MuteState | null => useContext(OwnMuteContext)

/** The banner at the top of the buble while the member is muted. */
export function MutedBanner() {
  const mute = useMutedHere()
  if (!mute) return null
  return (
    <div className="alert alert-warning muted-banner" role="status">
      <strong>{mute.message}.</strong> {MUTE_TEXTS.bannerHint}
    </div>
  )
}

/** `children` (a composer, a create button), or while muted the refusal in its place. */
export function UnlessMuted({ children }: { children: ReactNode }) {
  const mute = useMutedHere()
  if (!mute) return children
  return (
    <p className="muted-note" role="note">
      {mute.message}.
    </p>
  )
}
