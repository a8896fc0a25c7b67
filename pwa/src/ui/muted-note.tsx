import { mutedMessage } from '@buble/shared/mute-message'
import type { ReactNode } from 'react'
import { useMutedHere } from './own-mute.tsx'

/** `children` (a composer), or while its member is muted (issue 24 §2) the refusal's words in its place. */
export function UnlessMuted({ children }: { children: ReactNode }) {
  const until = useMutedHere()
  if (!until) return children
  return (
    <p className="muted-note" role="note">
      {mutedMessage(until)}.
    </p>
  )
}
