/** Profile, password change and account deletion with its 7-day grace period (CONTRACT §3.1). */

import type { ChangePasswordBody, DeletionStatus, Profile, UpdateProfileBody, User } from '@buble/shared/auth'
import { DELETION_GRACE_DAYS } from '@buble/shared/constants'
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { emailTokens, sessions, uploads, users } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { type AccountDeletionStep, type ProfileChangeStep, toUser, type UserRow } from '../../lib/accounts.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import { AppError, conflict, notFound } from '../../lib/errors.ts'
import type { Job } from '../../lib/jobs.ts'
import { hashPassword, verifyPassword } from '../../lib/passwords.ts'
import { announceRevoked, setNewPassword } from '../../lib/revocations.ts'
import { renewSession, signInFrom } from '../../lib/sessions.ts'
import { SECURE_URL_PREFIX } from '../../lib/storage.ts'
import { syncWrite } from '../../lib/sync-writes.ts'

const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000
export const DELETED_USER_NAME = 'Deleted user'

export const USER_MESSAGES = {
  passwordChanged: 'Password changed successfully',
  wrongPassword: 'Current password is incorrect',
  deletionScheduled: `Your account is scheduled for deletion in ${DELETION_GRACE_DAYS} days`,
  deletionCancelled: 'Account deletion cancelled',
  noDeletion: 'No account deletion is scheduled',
  badAvatar: 'Avatar must be an image you uploaded',
  userNotFound: 'User not found',
  emailTaken: 'An account with this email already exists',
} as const

export interface UsersHooks {
  deletionSteps?: readonly AccountDeletionStep[]
  profileSteps?: readonly ProfileChangeStep[]
}

export type UsersService = ReturnType<typeof usersService>

/** The account-deletion job's advisory lock: one process at a time runs it, across every process on the database. */
export const ACCOUNT_DELETION_JOB_LOCK = ADVISORY_LOCKS.accountDeletionJob

export function usersService(deps: Deps, { deletionSteps = [], profileSteps = [] }: UsersHooks = {}) {
  const { db, tokens, storage, log, now, config } = deps

  function deletionStatus(user: UserRow): DeletionStatus {
    const due = user.deletionScheduledFor
    if (!due)
      return { deletion_requested: false, deletion_scheduled_for: null, days_remaining: null, hours_remaining: null }
    const left = Math.max(0, due.getTime() - now().getTime())
    return {
      deletion_requested: true,
      deletion_scheduled_for: due.toISOString(),
      days_remaining: Math.floor(left / DAY),
      hours_remaining: Math.floor((left % DAY) / HOUR),
    }
  }

  async function update(id: string, values: Partial<typeof users.$inferInsert>): Promise<UserRow> {
    const [row] = await db
      .update(users)
      .set({ ...values, updatedAt: now() })
      .where(eq(users.id, id))
      .returning()
    return row!
  }

  /** Removes the personal data of one account; its authored content stays, shown as "Deleted user". */
  async function deleteAccount(tx: Tx, user: UserRow): Promise<string[]> {
    for (const step of deletionSteps) await step(tx, user)
    const files = await tx
      .delete(uploads)
      .where(and(eq(uploads.ownerId, user.id), eq(uploads.kind, 'avatar')))
      .returning({ key: uploads.key })
    await tx.delete(emailTokens).where(eq(emailTokens.userId, user.id))
    await tx.delete(sessions).where(eq(sessions.userId, user.id))
    await announceRevoked(tx, user.id)
    await tx
      .update(users)
      .set({
        name: DELETED_USER_NAME,
        // The address is freed so it can register again; the placeholder is unique and undeliverable.
        email: `deleted-${user.id}@deleted.invalid`,
        passwordHash: null,
        bio: null,
        avatarUrl: null,
        role: 'user',
        status: 'deleted',
        emailVerified: false,
        deletionScheduledFor: null,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: now(),
      })
      .where(eq(users.id, user.id))
    return files.map((file) => file.key)
  }

  const deletionJob: Job = {
    name: 'account-deletion',
    lockKey: ACCOUNT_DELETION_JOB_LOCK,
    async run(tx, at) {
      const due = await tx
        .select()
        .from(users)
        .where(
          and(isNotNull(users.deletionScheduledFor), lte(users.deletionScheduledFor, at), eq(users.status, 'active')),
        )
        .limit(100)
        .for('update', { skipLocked: true })
      const files: string[] = []
      for (const user of due) files.push(...(await deleteAccount(tx, user)))
      if (due.length > 0) log.info('accounts deleted', { count: due.length })
      // Files go after the rows; a file left behind by a crash is unreachable (its row is gone).
      for (const key of files)
        await storage.delete(key).catch((err) => log.warn('avatar file not removed', { key, err }))
    },
  }

  return {
    deletionJob,

    profile: (user: UserRow): Profile => ({ ...toUser(user), deletion: deletionStatus(user) }),

    /** Edits the profile (REST, or the `profile.update` mutation); members' devices get the new name and avatar. */
    updateProfile(user: UserRow, args: UpdateProfileBody): Promise<User> {
      return syncWrite(db, async (w) => {
        if (args.avatar_url) {
          const key = args.avatar_url.slice(SECURE_URL_PREFIX.length)
          const [upload] = await w.tx.select().from(uploads).where(eq(uploads.key, key)).limit(1)
          if (!upload || upload.ownerId !== user.id || upload.kind !== 'avatar')
            throw new AppError('VALIDATION_ERROR', USER_MESSAGES.badAvatar, [
              { path: 'avatar_url', message: USER_MESSAGES.badAvatar },
            ])
        }
        const values: Partial<typeof users.$inferInsert> = {}
        if (args.name !== undefined) values.name = args.name
        if (args.bio !== undefined) values.bio = args.bio === '' ? null : args.bio
        if (args.avatar_url !== undefined) values.avatarUrl = args.avatar_url
        const [row] = await w.tx
          .update(users)
          .set({ ...values, updatedAt: now() })
          .where(eq(users.id, user.id))
          .returning()
        const updated = row!
        if (updated.name !== user.name || updated.avatarUrl !== user.avatarUrl)
          for (const step of profileSteps) await step(w, updated)
        return toUser(updated)
      })
    },

    /**
     * A platform admin's edit of name, address and role (CONTRACT §3.4). A new address must be
     * verified again; members' devices get a new name as for a profile edit. Deleted accounts are 404.
     */
    adminUpdateUser(
      userId: string,
      args: { name?: string; email?: string; role?: UserRow['role'] },
    ): Promise<{ before: UserRow; after: UserRow }> {
      return syncWrite(db, async (w) => {
        const [before] = await w.tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update')
        if (!before || before.status === 'deleted') throw notFound(USER_MESSAGES.userNotFound)
        const values: Partial<typeof users.$inferInsert> = {}
        if (args.name !== undefined) values.name = args.name
        if (args.role !== undefined) values.role = args.role
        if (args.email !== undefined && args.email !== before.email) {
          const [taken] = await w.tx.select({ id: users.id }).from(users).where(eq(users.email, args.email)).limit(1)
          // The same words as registration's 409.
          if (taken) throw conflict(USER_MESSAGES.emailTaken)
          values.email = args.email
          values.emailVerified = false
        }
        const [row] = await w.tx
          .update(users)
          .set({ ...values, updatedAt: now() })
          .where(eq(users.id, userId))
          .returning()
        const after = row!
        // Members' devices and the kept buble answers show the name, and the owner's address.
        if (after.name !== before.name || after.email !== before.email)
          for (const step of profileSteps) await step(w, after)
        return { before, after }
      })
    },

    /**
     * Deletes an account now, as the scheduled job does (CONTRACT §3.1: owned bubles pass on, personal
     * data goes, tokens stop working), for a platform admin. Answers the row as it was.
     */
    adminDeleteAccount(userId: string): Promise<UserRow> {
      return syncWrite(db, async (w) => {
        const [user] = await w.tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update')
        if (!user || user.status === 'deleted') throw notFound(USER_MESSAGES.userNotFound)
        const files = await deleteAccount(w.tx, user)
        w.afterCommit(() => {
          for (const key of files)
            void storage.delete(key).catch((err) => log.warn('avatar file not removed', { key, err }))
        })
        return user
      })
    },

    /** Every other session ends with the old password; this one goes on, with a new token (decision 103). */
    async changePassword(
      user: UserRow,
      args: ChangePasswordBody,
      session: { id: string | undefined; headers?: Headers | undefined } = { id: undefined },
    ): Promise<{ message: string; access_token: string }> {
      // 400, not 401: a 401 would make the client sign out.
      if (!(await verifyPassword(user.passwordHash, args.currentPassword)))
        throw new AppError('INVALID_PASSWORD', USER_MESSAGES.wrongPassword)
      const passwordHash = await hashPassword(args.newPassword)
      const from = signInFrom(session.headers, config.sessionPlaceHeaders)
      const token = await db.transaction(async (tx) => {
        const row = (await setNewPassword(tx, user.id, passwordHash, now(), { keepSession: session.id }))!
        // The session ended meanwhile (signed out from another device): the new password opens another.
        return (
          (await renewSession(tx, tokens, row, session.id, from, now())) ??
          (await renewSession(tx, tokens, row, undefined, from, now()))!
        )
      })
      return { message: USER_MESSAGES.passwordChanged, access_token: token }
    },

    deletionStatus,

    async requestDeletion(user: UserRow): Promise<{ message: string; deletion_scheduled_for: string }> {
      const due = user.deletionScheduledFor ?? new Date(now().getTime() + DELETION_GRACE_DAYS * DAY)
      if (!user.deletionScheduledFor) await update(user.id, { deletionScheduledFor: due })
      return { message: USER_MESSAGES.deletionScheduled, deletion_scheduled_for: due.toISOString() }
    },

    async cancelDeletion(user: UserRow): Promise<{ message: string }> {
      if (!user.deletionScheduledFor) throw conflict(USER_MESSAGES.noDeletion)
      await update(user.id, { deletionScheduledFor: null })
      return { message: USER_MESSAGES.deletionCancelled }
    },
  }
}
