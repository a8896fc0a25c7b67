/** The drizzle schema: the single description of every table; migrations are generated from it. */

import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/**
 * A synced row's version (CONTRACT §5): set on insert by default, and on every update by the service
 * that writes it (`NEXT_VERSION`). `buble_next_version()` (migration 0011, decision 91) makes it from the
 * writing transaction's id, so versions need no lock and a pull reads only those that have settled.
 */
/**
 * Full text search (decision 95): a row's words in the `simple` configuration (names and every word
 * as written) and the `english` one (stems: "running" finds "run"), kept in a stored generated
 * column with a GIN index, so a search never parses text again (features/search/queries.ts).
 */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })
const searchVectorOf = (doc: string) =>
  tsvector('search_vector').generatedAlwaysAs(
    sql.raw(`to_tsvector('simple'::regconfig, ${doc}) || to_tsvector('english'::regconfig, ${doc})`),
  )
/** The `search_vector` of a row whose searched text is column `column`. */
const searchVector = (column: string) => searchVectorOf(`"${column}"`)

const version = () => bigint('version', { mode: 'number' }).notNull().default(sql`buble_next_version()`)

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
    /** The profile's global switch for web push: off, nothing is pushed to any of their devices. */
    pushEnabled: boolean('push_enabled').notNull().default(true),
    /** When event reminders are pushed (shared/src/calendar.ts): none, 1 hour or 1 day before. */
    eventReminder: text('event_reminder', { enum: ['none', '1h', '1d'] })
      .notNull()
      .default('1h'),
    /**
     * The private calendar feed (decision 96): the secret is derived from the server's signing key,
     * this serial and the user id; only its SHA-256 is stored, to find the member. A reset bumps the serial.
     */
    calendarFeedSerial: integer('calendar_feed_serial').notNull().default(0),
    calendarFeedHash: text('calendar_feed_hash'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    index('users_deletion_due_idx').on(t.deletionScheduledFor).where(sql`${t.deletionScheduledFor} is not null`),
    // The admin area's search (substring, any case): trigram indexes (pg_trgm, migration 0006).
    index('users_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    // The admin lists and their CSV exports read newest first, in keyset batches.
    index('users_created_idx').on(t.createdAt, t.id),
    uniqueIndex('users_calendar_feed_hash_key').on(t.calendarFeedHash),
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

/**
 * The sessions signed in to an account (decision 103): one row per sign-in, its id in the token
 * (`sid`). Ending a session deletes its row, which refuses its token at once; a row whose last token
 * expired is deleted by a job. No IP address is kept: only what the member sees in the list.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Parsed from the User-Agent at sign-in ("iPhone", "Android", "macOS"); null when unknown. */
    device: text('device'),
    /** Parsed from the User-Agent at sign-in ("Safari", "Chrome"); null when unknown. */
    browser: text('browser'),
    /** From the operator's trusted place header (SESSION_PLACE_HEADERS), else null. */
    place: text('place'),
    createdAt: createdAt(),
    /** Written at most every few minutes, after the answer (lib/auth.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When its newest token expires (a refresh moves it on); past it, the row is deleted. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
)

/** A member's passkeys (WebAuthn credentials, decision 102): the public key and what the authenticator told of itself. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator named it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type', { enum: ['singleDevice', 'multiDevice'] }).notNull(),
    backedUp: boolean('backed_up').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
)

/**
 * WebAuthn challenges handed out and not yet answered (decision 102): in the database, so any API
 * process may check the answer, and deleted as they are answered, so each is good for one answer.
 * `origin` is the page that asked: the answer must come from it, for its host as relying party.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    kind: text('kind', { enum: ['registration', 'authentication'] }).notNull(),
    /** The signed-in member adding a passkey; null for a sign-in. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt), index('webauthn_challenges_user_idx').on(t.userId)],
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

/** A private group. `changed_version` is the newest version written anywhere in it, so a pull can skip quiet bubles. */
export const bubles = pgTable(
  'bubles',
  {
    id: uuid('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    /** The optional overview tools the owner turned on, and '-local_events' once Local Events is removed (shared/src/tools.ts). */
    tools: text('tools').array().notNull().default(sql`'{}'::text[]`),
    version: version(),
    changedVersion: bigint('changed_version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('bubles_slug_key').on(t.slug), index('bubles_owner_idx').on(t.ownerId)],
)

/** Who belongs to which buble, with what role and explicit permission list. Pending accounts are never here. */
export const memberships = pgTable(
  'memberships',
  {
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'moderator', 'member'] }).notNull(),
    permissions: text('permissions').array().notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // The version of the join: a device whose cursor is older has none of this buble yet.
    joinedVersion: bigint('joined_version', { mode: 'number' }).notNull(),
    // Issue 24 §2 (decision 100): muted while now < muted_until; 9999-12-31 is "until unmuted"; null, never muted or unmuted.
    mutedUntil: timestamp('muted_until', { withTimezone: true, mode: 'date' }),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.bubleId, t.userId] }),
    index('memberships_user_idx').on(t.userId),
    index('memberships_buble_version_idx').on(t.bubleId, t.version),
    // Unread members: who joined after a read mark, without reading the whole list.
    index('memberships_buble_joined_idx').on(t.bubleId, t.joinedVersion),
  ],
)

/** Single-use invite codes, valid 7 days. */
export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey(),
    code: text('code').notNull(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email'),
    usedById: uuid('used_by_id').references(() => users.id, { onDelete: 'set null' }),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invites_code_key').on(t.code),
    index('invites_buble_idx').on(t.bubleId),
    index('invites_created_by_idx').on(t.createdById),
    index('invites_used_by_idx').on(t.usedById).where(sql`${t.usedById} is not null`),
    // An address's open e-mail invites, joined when the account becomes active.
    index('invites_open_email_idx').on(t.email).where(sql`${t.email} is not null and ${t.usedById} is null`),
  ],
)

/**
 * When each member last read each tab of a buble: unread counters count what others added since,
 * by version (versions never tie and become visible in order; times can tie). No row: read at the
 * join. `version` brings the caller's own counters to their devices.
 */
export const unreadMarks = pgTable(
  'unread_marks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }).notNull(),
    readVersion: bigint('read_version', { mode: 'number' }).notNull(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bubleId, t.contentType] }),
    index('unread_marks_user_version_idx').on(t.userId, t.version),
    index('unread_marks_buble_idx').on(t.bubleId),
  ],
)

/**
 * Mentions (issue 23 §1, decision 94): one row per member mentioned in a post, comment or chat
 * message, written once (an edit mentioning them again adds nothing). The tab's `@` mark shows while
 * a row's version is above the member's read mark of that tab (`unread_marks`).
 */
export const mentions = pgTable(
  'mentions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contentId: uuid('content_id').notNull(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.contentId] }),
    index('mentions_user_tab_version_idx').on(t.userId, t.bubleId, t.contentType, t.version),
    index('mentions_buble_idx').on(t.bubleId),
  ],
)

/**
 * What a pull answers as `del`. A buble-scoped row (`user_id` null) tells every member a row is gone;
 * a user-scoped row (`entity` buble, `user_id` set) tells one user's devices to forget a buble they left.
 */
export const syncTombstones = pgTable(
  'sync_tombstones',
  {
    version: version().primaryKey(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    bubleId: uuid('buble_id'),
    userId: uuid('user_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('sync_tombstones_buble_idx').on(t.bubleId, t.version).where(sql`${t.userId} is null`),
    index('sync_tombstones_user_idx').on(t.userId, t.version).where(sql`${t.userId} is not null`),
    index('sync_tombstones_created_idx').on(t.createdAt),
  ],
)

/** Each pushed mutation's first result, written in the transaction of its write: a replay answers it again. */
export const appliedMutations = pgTable(
  'applied_mutations',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    result: jsonb('result'),
    createdAt: createdAt(),
  },
  (t) => [index('applied_mutations_created_idx').on(t.createdAt), index('applied_mutations_user_idx').on(t.userId)],
)

/** Every id given to a row that a client may also choose, so an id is never reused across users or kinds. */
export const entityIds = pgTable('entity_ids', {
  id: uuid('id').primaryKey(),
  kind: text('kind').notNull(),
  userId: uuid('user_id'),
  createdAt: createdAt(),
})

/** Facts about this database's sync history: its `epoch` (a fresh database gets a new one) and the tombstone `horizon`. */
export const syncMeta = pgTable('sync_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
})

/**
 * Wall posts. `position` numbers a buble's live posts from 1 (the oldest) without gaps, so a page
 * is one index range read however deep it is; deleting a post closes the gap above it
 * (docs/decisions/). `added_version` is the version of the insert, for unread counting.
 * `comments_count` is kept with the comments, and the post's version moves with its comments and
 * reactions, because both are part of a post as devices get it.
 */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    imageUrl: text('image_url'),
    linkUrl: text('link_url'),
    linkTitle: text('link_title'),
    linkDescription: text('link_description'),
    linkImage: text('link_image'),
    /** When the link preview was fetched (or given up); null while one is owed. */
    linkFetchedAt: timestamp('link_fetched_at', { withTimezone: true, mode: 'date' }),
    isEdited: boolean('is_edited').notNull().default(false),
    position: integer('position').notNull(),
    commentsCount: integer('comments_count').notNull().default(0),
    /** When a member pinned the post to the top of the wall (issue 23 §5); null when it is not pinned. */
    pinnedAt: timestamp('pinned_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    addedVersion: bigint('added_version', { mode: 'number' }).notNull(),
    version: version(),
    searchVector: searchVector('content'),
  },
  (t) => [
    index('posts_buble_position_idx').on(t.bubleId, t.position),
    index('posts_buble_pinned_idx').on(t.bubleId, t.pinnedAt).where(sql`${t.pinnedAt} is not null`),
    index('posts_buble_version_idx').on(t.bubleId, t.version),
    index('posts_buble_added_idx').on(t.bubleId, t.addedVersion),
    index('posts_author_idx').on(t.authorId),
    index('posts_content_trgm_idx').using('gin', sql`${t.content} gin_trgm_ops`),
    index('posts_search_idx').using('gin', t.searchVector),
    // Search walks one buble's posts newest first when a word is common (features/search/queries.ts).
    index('posts_buble_created_idx').on(t.bubleId, t.createdAt, t.id),
    index('posts_created_idx').on(t.createdAt, t.id),
    // The orphan-file job asks whether any post names a file.
    index('posts_image_idx').on(t.imageUrl).where(sql`${t.imageUrl} is not null`),
    index('posts_link_owed_idx').on(t.createdAt).where(sql`${t.linkUrl} is not null and ${t.linkFetchedAt} is null`),
  ],
)

/** Comments on posts; `buble_id` is the post's, so comments sync by buble. */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    isEdited: boolean('is_edited').notNull().default(false),
    createdAt: createdAt(),
    version: version(),
    searchVector: searchVector('content'),
  },
  (t) => [
    index('comments_post_created_idx').on(t.postId, t.createdAt),
    index('comments_buble_version_idx').on(t.bubleId, t.version),
    index('comments_author_idx').on(t.authorId),
    index('comments_search_idx').using('gin', t.searchVector),
    index('comments_buble_created_idx').on(t.bubleId, t.createdAt, t.id),
  ],
)

/** Who reacted how to a post: one row per (post, user, type); reactions toggle per type. */
export const postReactions = pgTable(
  'post_reactions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['like', 'love', 'laugh', 'wow', 'sad', 'angry'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId, t.type] }), index('post_reactions_user_idx').on(t.userId)],
)

/** Stories: an image or a video that lives 24 hours; a job removes expired ones and their files. */
export const stories = pgTable(
  'stories',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mediaUrl: text('media_url').notNull(),
    mediaType: text('media_type', { enum: ['image', 'video'] }).notNull(),
    durationSeconds: integer('duration_seconds').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    version: version(),
  },
  (t) => [
    index('stories_buble_version_idx').on(t.bubleId, t.version),
    index('stories_buble_expires_idx').on(t.bubleId, t.expiresAt),
    index('stories_expires_idx').on(t.expiresAt),
    index('stories_author_idx').on(t.authorId),
  ],
)

/**
 * Events (CONTRACT §3.3). An event's data carries its RSVPs, so an RSVP moves the event's version.
 * `added_version` is the version of the insert, for unread counting.
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    location: text('location'),
    eventTime: timestamp('event_time', { withTimezone: true, mode: 'date' }).notNull(),
    externalUrl: text('external_url'),
    externalSource: text('external_source'),
    /** Recurring events (decision 97): an RRULE from `event_time`, null for an event that does not repeat. */
    recurrence: text('recurrence'),
    /** Occurrences taken out of the series: cancelled, or changed into an event of their own. */
    exdates: timestamp('exdates', { withTimezone: true, mode: 'date' }).array().notNull().default(sql`'{}'`),
    /** An occurrence changed on its own: its series, and the start it had there (RECURRENCE-ID). */
    seriesId: uuid('series_id').references((): AnyPgColumn => events.id, { onDelete: 'cascade' }),
    recurrenceId: timestamp('recurrence_id', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    /** Last edit of the event's own fields (an RSVP does not count): the calendar file's LAST-MODIFIED. */
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    addedVersion: bigint('added_version', { mode: 'number' }).notNull(),
    version: version(),
    searchVector: searchVectorOf(`"title" || ' ' || coalesce("description", '') || ' ' || coalesce("location", '')`),
  },
  (t) => [
    index('events_buble_time_idx').on(t.bubleId, t.eventTime),
    // The reminder job's each-minute look at what starts soon, across bubles (decision 96).
    index('events_time_idx').on(t.eventTime),
    index('events_buble_version_idx').on(t.bubleId, t.version),
    index('events_buble_added_idx').on(t.bubleId, t.addedVersion),
    index('events_creator_idx').on(t.creatorId),
    index('events_search_idx').using('gin', t.searchVector),
    index('events_series_idx').on(t.seriesId),
  ],
)

/**
 * One answer per member and event, of a repeating event per occurrence (`occurrence`: its start as
 * ISO 8601 in UTC, '' for an event that does not repeat): a new answer replaces the earlier one.
 */
export const eventRsvps = pgTable(
  'event_rsvps',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['going', 'maybe', 'cant_go'] }).notNull(),
    occurrence: text('occurrence').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId, t.occurrence] }), index('event_rsvps_user_idx').on(t.userId)],
)

/**
 * Event reminders already sent, one per event, member and start (decision 96): the job claims a row
 * before pushing, so across runs and nodes a reminder goes once, and an event moved to a new start
 * reminds again at its new time.
 */
export const eventRemindersSent = pgTable(
  'event_reminders_sent',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.userId, t.startsAt] }),
    index('event_reminders_sent_user_idx').on(t.userId),
  ],
)

/**
 * Polls (CONTRACT §3.3). Totals are kept on the poll and its options, so a list is built without
 * counting votes; a vote moves the poll's version (every member's copy shows the new totals).
 */
export const polls = pgTable(
  'polls',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    totalVotes: integer('total_votes').notNull().default(0),
    /** Members who voted (with several choices, fewer than the votes). */
    votersCount: integer('voters_count').notNull().default(0),
    /** After it, votes are refused (docs/decisions/0098). */
    closesAt: timestamp('closes_at', { withTimezone: true, mode: 'date' }),
    /** Set once by the poll-closing job after `closes_at`: the move that brings the final totals to devices. */
    closed: boolean('closed').notNull().default(false),
    /** A member may choose several options. */
    multiple: boolean('multiple').notNull().default(false),
    /** Totals are sent to nobody until the poll is closed. */
    hideResults: boolean('hide_results').notNull().default(false),
    /** A secret ballot: choices are counted on the options only; `poll_voters` says who voted. */
    secret: boolean('secret').notNull().default(false),
    createdAt: createdAt(),
    addedVersion: bigint('added_version', { mode: 'number' }).notNull(),
    version: version(),
    searchVector: searchVector('question'),
  },
  (t) => [
    index('polls_buble_created_idx').on(t.bubleId, t.createdAt),
    index('polls_buble_version_idx').on(t.bubleId, t.version),
    index('polls_buble_added_idx').on(t.bubleId, t.addedVersion),
    index('polls_creator_idx').on(t.creatorId),
    // The poll-closing job's scan: polls with a closing time not yet closed.
    index('polls_closing_idx').on(t.closesAt).where(sql`${t.closesAt} is not null and not ${t.closed}`),
    index('polls_search_idx').using('gin', t.searchVector),
  ],
)

export const pollOptions = pgTable(
  'poll_options',
  {
    id: uuid('id').primaryKey(),
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    optionText: text('option_text').notNull(),
    position: integer('position').notNull(),
    votesCount: integer('votes_count').notNull().default(0),
    searchVector: searchVector('option_text'),
  },
  (t) => [
    index('poll_options_poll_idx').on(t.pollId, t.position),
    index('poll_options_search_idx').using('gin', t.searchVector),
  ],
)

/**
 * A member's choices in a poll that is not secret: one row per chosen option (one for a poll of
 * one choice); a new vote replaces the earlier choices.
 */
export const pollVotes = pgTable(
  'poll_votes',
  {
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    optionId: uuid('option_id')
      .notNull()
      .references(() => pollOptions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.pollId, t.userId, t.optionId] }),
    index('poll_votes_option_idx').on(t.optionId),
    index('poll_votes_user_idx').on(t.userId),
  ],
)

/**
 * Who voted in a secret poll, so nobody votes twice: no option, no time. Their choices are only
 * in `poll_options.votes_count` (docs/decisions/0098).
 */
export const pollVoters = pgTable(
  'poll_voters',
  {
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.userId] }), index('poll_voters_user_idx').on(t.userId)],
)

/**
 * Chat messages (CONTRACT §3.3). A message's data carries its reactions and the message it replies
 * to, so a reaction moves its version. Pages are read by `(buble_id, created_at, id)`.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    type: text('type', { enum: ['text', 'image'] })
      .notNull()
      .default('text'),
    imageUrl: text('image_url'),
    replyToId: uuid('reply_to_id'),
    isEdited: boolean('is_edited').notNull().default(false),
    createdAt: createdAt(),
    addedVersion: bigint('added_version', { mode: 'number' }).notNull(),
    version: version(),
    searchVector: searchVector('content'),
  },
  (t) => [
    index('chat_messages_buble_created_idx').on(t.bubleId, t.createdAt, t.id),
    index('chat_messages_buble_version_idx').on(t.bubleId, t.version),
    index('chat_messages_buble_added_idx').on(t.bubleId, t.addedVersion),
    index('chat_messages_sender_idx').on(t.senderId),
    index('chat_messages_reply_idx').on(t.replyToId).where(sql`${t.replyToId} is not null`),
    index('chat_messages_image_idx').on(t.imageUrl).where(sql`${t.imageUrl} is not null`),
    index('chat_messages_search_idx').using('gin', t.searchVector),
  ],
)

/** Who reacted how to a chat message: one row per (message, user, type); reactions toggle per type. */
export const chatReactions = pgTable(
  'chat_reactions',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => chatMessages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['like', 'love', 'laugh', 'wow', 'sad', 'angry'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId, t.type] }), index('chat_reactions_user_idx').on(t.userId)],
)

/** A device's Web Push subscription (CONTRACT §5); the endpoint names it. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
)

/** Bubles a member muted: nothing of theirs is pushed to the member's devices. */
export const pushMutes = pgTable(
  'push_mutes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bubleId] }), index('push_mutes_buble_idx').on(t.bubleId)],
)

/** Every write a platform admin makes through the admin area: who, what, which row, when (issue 12). */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: uuid('id').primaryKey(),
    /** The admin; kept as text in `adminEmail` once their account is gone. */
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email').notNull(),
    /** e.g. `user.create`, `user.update`, `buble.delete`, `user.reset_password`. */
    action: text('action').notNull(),
    /** `user`, `buble`, `event`, `poll`, `post` or `invite`. */
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** A short human description of the row (a name, a title), kept after the row is deleted. */
    targetLabel: text('target_label').notNull().default(''),
    /** What changed: field names and new values; never passwords. */
    detail: jsonb('detail').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_audit_created_idx').on(t.createdAt, t.id),
    index('admin_audit_admin_idx').on(t.adminId).where(sql`${t.adminId} is not null`),
  ],
)

/** Donation pledges from the public /donate page (CONTRACT §3.5). */
export const donationPledges = pgTable(
  'donation_pledges',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** In minor units (cents), so sums are exact. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    message: text('message'),
    createdAt: createdAt(),
  },
  (t) => [index('donation_pledges_created_idx').on(t.createdAt)],
)

/**
 * Reports of content (issue 24 §1, decision 101): one row per reporter and item while open (a second
 * report of it updates the reason and note). `excerpt` keeps what was reported after the content
 * is gone; `added_version` counts on the moderators' Reports counter. `resolution_id` is the
 * moderation action that closed it.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    targetType: text('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    note: text('note'),
    excerpt: text('excerpt').notNull().default(''),
    createdAt: createdAt(),
    addedVersion: bigint('added_version', { mode: 'number' }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    resolutionId: uuid('resolution_id'),
  },
  (t) => [
    uniqueIndex('reports_open_reporter_key')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.resolvedAt} is null`),
    index('reports_buble_open_idx').on(t.bubleId, t.createdAt).where(sql`${t.resolvedAt} is null`),
    index('reports_target_idx').on(t.targetType, t.targetId),
    index('reports_author_idx').on(t.authorId),
    index('reports_buble_added_idx').on(t.bubleId, t.addedVersion),
    index('reports_open_created_idx').on(t.createdAt, t.id).where(sql`${t.resolvedAt} is null`),
  ],
)

/** What moderators did with reports (issue 24 §1): who, which action, on what, how many reports it closed, when. */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: uuid('id').primaryKey(),
    bubleId: uuid('buble_id')
      .notNull()
      .references(() => bubles.id, { onDelete: 'cascade' }),
    moderatorId: uuid('moderator_id').references(() => users.id, { onDelete: 'set null' }),
    /** dismiss, delete or mute. */
    action: text('action').notNull(),
    /** A mute's duration (1h, 1d, 1w, indefinite); null otherwise. */
    duration: text('duration'),
    targetType: text('target_type').notNull(),
    targetId: uuid('target_id').notNull(),
    /** The content's author: their notice (delete and mute) is read by this column. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    excerpt: text('excerpt').notNull().default(''),
    reportsClosed: integer('reports_closed').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('moderation_actions_buble_created_idx').on(t.bubleId, t.createdAt),
    index('moderation_actions_moderator_idx').on(t.moderatorId),
    index('moderation_actions_author_idx').on(t.authorId, t.createdAt).where(sql`${t.authorId} is not null`),
  ],
)
