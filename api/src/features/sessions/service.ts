/** The devices signed in to one's account (decision 103): listed, and signed out one by one or all but this one. */

import { type DeviceSession, type EndSessionsResponse, SESSION_MESSAGES } from '@buble/shared/sessions'
import { desc, eq } from 'drizzle-orm'
import { sessions } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import { notFound } from '../../lib/errors.ts'
import type { Job } from '../../lib/jobs.ts'
import { deleteExpiredSessions, endSessions } from '../../lib/sessions.ts'

export type SessionsService = ReturnType<typeof sessionsService>

export function sessionsService({ db, log }: Pick<Deps, 'db' | 'log'>) {
  const expiryJob: Job = {
    name: 'session-expiry',
    lockKey: ADVISORY_LOCKS.sessionExpiryJob,
    async run(tx, at) {
      const count = await deleteExpiredSessions(tx, at)
      if (count > 0) log.info('expired sessions deleted', { count })
    },
  }

  return {
    expiryJob,

    /** The caller's sessions, this one first, then by last use. */
    async list(user: UserRow, current: string | undefined): Promise<DeviceSession[]> {
      const rows = await db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user.id))
        .orderBy(desc(sessions.lastUsedAt), desc(sessions.id))
      const listed = rows.map(
        (row): DeviceSession => ({
          id: row.id,
          device: row.device,
          browser: row.browser,
          place: row.place,
          created_at: row.createdAt.toISOString(),
          last_used_at: row.lastUsedAt.toISOString(),
          current: row.id === current,
        }),
      )
      return [...listed.filter((s) => s.current), ...listed.filter((s) => !s.current)]
    },

    /** Signs one of the caller's sessions out; 404 for a session that is not theirs (or no longer exists). */
    async end(user: UserRow, sessionId: string): Promise<EndSessionsResponse> {
      const ended = await db.transaction((tx) => endSessions(tx, user.id, { only: [sessionId] }))
      if (ended.length === 0) throw notFound(SESSION_MESSAGES.notFound)
      return { message: SESSION_MESSAGES.ended, ended: 1 }
    },

    /** Signs the caller's own session out (this device's Sign Out); a token of no session has none to end. */
    async endCurrent(user: UserRow, current: string | undefined): Promise<EndSessionsResponse> {
      const ended = current ? await db.transaction((tx) => endSessions(tx, user.id, { only: [current] })) : []
      return { message: SESSION_MESSAGES.signedOut, ended: ended.length }
    },

    /** Signs every session of the caller out but `current`, the one asking. */
    async endOthers(user: UserRow, current: string | undefined): Promise<EndSessionsResponse> {
      const ended = await db.transaction((tx) => endSessions(tx, user.id, { except: current }))
      return { message: SESSION_MESSAGES.endedOthers, ended: ended.length }
    },
  }
}
