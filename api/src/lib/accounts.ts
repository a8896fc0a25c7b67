/** The user row as every feature reads it, and its public shape (CONTRACT §3 User). */

import type { User } from '@buble/shared/auth'
import { eq } from 'drizzle-orm'
import type { Executor, Tx } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { SyncWriter } from './sync-writes.ts'

export type UserRow = typeof users.$inferSelect

/** A feature's part of deleting an account (memberships, push subscriptions…), run in the deletion's transaction. */
export type AccountDeletionStep = (tx: Tx, user: UserRow) => Promise<void>

/** A feature's part of an account becoming active (its address verified), run in that transaction. */
export type ActivationStep = (tx: Tx, user: UserRow) => Promise<void>

/** A feature's part of a profile edit (re-sending rows that show the name or avatar), run in its sync write. */
export type ProfileChangeStep = (w: SyncWriter, user: UserRow) => Promise<void>

export const toUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  email_verified: row.emailVerified,
  role: row.role,
  bio: row.bio,
  avatar_url: row.avatarUrl,
  created_at: row.createdAt.toISOString(),
})

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return row
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1)
  return row
}
