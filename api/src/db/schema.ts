/** The drizzle schema: the single description of every table; migrations are generated from it. */

import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    emailVerified: boolean('email_verified').notNull().default(false),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    // active: may sign in; pending: created by an e-mail invite, waits for complete-registration;
    // deleted: personal data removed, the row stays so authored content shows "Deleted user".
    status: text('status', { enum: ['active', 'pending', 'deleted'] })
      .notNull()
      .default('active'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    // Bumped by password change/reset and deletion: tokens carrying an older version are refused.
    tokenVersion: integer('token_version').notNull().default(0),
    deletionScheduledFor: timestamp('deletion_scheduled_for', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    index('users_deletion_due_idx').on(t.deletionScheduledFor).where(sql`${t.deletionScheduledFor} is not null`),
  ],
)

/** One-time tokens mailed to users; only a SHA-256 of each token is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['verify', 'reset', 'registration'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_tokens_hash_key').on(t.tokenHash), index('email_tokens_user_idx').on(t.userId, t.kind)],
)

/** Stored files: who owns each and, for buble files, which buble may read it. */
export const uploads = pgTable(
  'uploads',
  {
    key: text('key').primaryKey(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    bubleId: uuid('buble_id'),
    kind: text('kind', { enum: ['avatar', 'image', 'story'] }).notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
)

/** Counters of rate-limiter-flexible's drizzle store, shared by every API process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
})
