/**
 * The members a buble's texts may mention and show (decision 94): given once around a tab or the
 * chat, read by the mention input (suggestions) and by `LinkedText` (names as they are now).
 */

import { type MemberNames, memberNames, renderMentions } from '@buble/shared/mentions'
import { createContext, type ReactNode, useContext, useMemo } from 'react'
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

/** Gives the buble's members (from the device) to the mention inputs and texts inside. */
export function MentionMembers({ bubleId, children }: { bubleId: string; children: ReactNode }) {
  const rows = useMembers(bubleId)
  const { userId } = useDevice()
  const value = useMemo(() => {
    const members = (rows ?? []).map((row) => ({ id: row.user_id, name: row.user.name }))
    return { members, me: userId, nameOf: memberNames(members) }
  }, [rows, userId])
  return <MentionMembersContext.Provider value={value}>{children}</MentionMembersContext.Provider>
}

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
