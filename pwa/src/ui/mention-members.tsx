/**
 * The members a buble's texts may mention and show (decision 94): given once around a tab or the
 * chat, read by the mention input (suggestions) and by `LinkedText` (names as they are now). From
 * the same rows, the signed-in member's own mute (issue 24 §2, `useMutedHere`): here rather than in
 * a module of its own, which would be one more chunk on the buble page's first load (decision 100).
 */

import { type MemberNames, memberNames, renderMentions } from '@buble/shared/mentions'
import { isIndefiniteMute, isMutedAt } from '@buble/shared/mutes'
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react'
import { useMembers } from '../data/bubles.ts'
import { useDevice } from '../data/data-context.tsx'

export interface MentionMember {
  id: string
  name: string
}

interface MentionMembersValue {
  /** Every member, by how the buble lists them. */
  members: readonly MentionMember[]
  /** The signed-in user: not suggested (mentioning oneself does nothing). */
  me: string | null
  nameOf: MemberNames
}

const NOBODY: MentionMembersValue = { members: [], me: null, nameOf: () => undefined }
const MentionMembersContext = createContext<MentionMembersValue>(NOBODY)

/** Gives the buble's members (from the device) to the mention inputs and texts inside, and the user's own mute. */
export function MentionMembers({ bubleId, children }: { bubleId: string; children: ReactNode }) {
  const rows = useMembers(bubleId)
  const { userId } = useDevice()
  const value = useMemo(() => {
    const members = (rows ?? []).map((row) => ({ id: row.user_id, name: row.user.name }))
    return { members, me: userId, nameOf: memberNames(members) }
  }, [rows, userId])
  const muted = useMuteInForce(rows?.find((row) => row.user_id === userId)?.muted_until)
  return (
    <MentionMembersContext.Provider value={value}>
      <OwnMuteContext.Provider value={muted}>{children}</OwnMuteContext.Provider>
    </MentionMembersContext.Provider>
  )
}

const OwnMuteContext = createContext<string | null>(null)

/** `until` while the mute is in force, null once it has ended (the component renders again then). */
function useMuteInForce(until: string | undefined): string | null {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    if (!until || isIndefiniteMute(until)) return
    const left = Date.parse(until) - Date.now()
    if (left <= 0) return
    // A week at most: far below setTimeout's longest delay.
    const timer = setTimeout(() => setNow(Date.now()), left + 50)
    return () => clearTimeout(timer)
  }, [until])
  return until && isMutedAt(until, Math.max(now, Date.now())) ? until : null
}

/**
 * When the signed-in member's mute in this buble ends (ISO; 9999-12-31 for "until unmuted"), or null
 * when not muted (issue 24 §2): from their own member row on the device, so it holds offline.
 */
export const useMutedHere = (): string | null => useContext(OwnMuteContext)

/** The members in reach; none outside a `MentionMembers` (every token then shows as plain text). */
export const useMentionMembers = (): MentionMembersValue => useContext(MentionMembersContext)

/** A stored text as people read it, for plain-text places (excerpts, quotes, the clipboard). */
export function useReadable(): (text: string) => string {
  const { nameOf } = useMentionMembers()
  return (text) => renderMentions(text, nameOf)
}

/** For tests and other trees: the members given directly. */
export function MentionMembersList({
  members,
  me = null,
  children,
}: {
  members: readonly MentionMember[]
  me?: string | null
  children: ReactNode
}) {
  const value = useMemo(() => ({ members, me, nameOf: memberNames(members) }), [members, me])
  return <MentionMembersContext.Provider value={value}>{children}</MentionMembersContext.Provider>
}
