/**
 * The signed-in member's mute in the buble on screen (issue 24 §2), given once around the buble's
 * page: composers give way to the refusal's words while it lasts (muted-note.tsx) and the banner
 * (muted-banner.tsx, loaded only then) says until when. It reads the device's own member row, so it
 * holds offline.
 */

import { createContext, type ReactNode, useContext } from 'react'
import { useOwnMute } from '../data/mutes.ts'

const OwnMuteContext = createContext<string | null>(null)

/** Gives the signed-in member's mute in `bubleId` to the banner and composers inside. */
export function OwnMute({ bubleId, children }: { bubleId: string; children: ReactNode }) {
  return <OwnMuteContext.Provider value={useOwnMute(bubleId) ?? null}>{children}</OwnMuteContext.Provider>
}

/** When the mute in force here ends (ISO; 9999-12-31 for "until unmuted"), or null (also outside an `OwnMute`). */
export const useMutedHere = (): string | null => useContext(OwnMuteContext)
