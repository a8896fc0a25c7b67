/**
 * The admin area's reads: one SQL statement per page (rows built as JSON in PostgreSQL) plus one
 * count, keyset batches for CSV exports, the two detail views and the counters. Newest first,
 * ties broken by id, so pages and batches are stable.
 */

import type {
  AdminAuditEntry,
  AdminBubleDetail,
  AdminRows,
  AdminStats,
  AdminTab,
  AdminUserDetail,
} from '@buble/shared/admin'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { isoJson, rowsOf } from '../../lib/sql-json.ts'

/** How one list reads: its FROM clause (the listed table is `t`), its row as JSON, what search looks at. */
interface ListSpec {
  from: string
  json: (now: Date) => SQL
  /**
   * What a search matches: columns of `t` (`col ilike pattern`, so a trigram index serves) and rows
   * of `t` whose referenced row matches (`via`: an id list built first, so PostgreSQL can OR the
   * indexes of `t` together instead of scanning the join).
   */
  search: readonly Match[]
  /** Rows never listed (deleted accounts). */
  filter?: string
}

type Match = (pattern: string) => SQL

/** `t`'s own column. */
const col =
  (column: string): Match =>
  (pattern) =>
    sql`${sql.raw(column)} ilike ${pattern}`

/** `t`'s reference `column` to a row of `table` one of whose `fields` matches. */
const via =
  (column: string, table: string, fields: readonly string[]): Match =>
  (pattern) =>
    sql`${sql.raw(column)} = any(array(select id from ${sql.raw(table)} where ${sql.join(
      fields.map((field) => sql`${sql.raw(field)} ilike ${pattern}`),
      sql` or `,
    )}))`

const person = (alias: string) => `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'email', ${alias}.email)`
const bubleRef = (alias: string) => `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'slug', ${alias}.slug)`
const raw = (text: string) => () => sql.raw(text)

const USER_JSON = `json_build_object('id', t.id, 'name', t.name, 'email', t.email,
  'email_verified', t.email_verified, 'role', t.role, 'status', t.status, 'bio', t.bio,
  'avatar_url', t.avatar_url, 'created_at', ${isoJson('t.created_at')},
  'bubles_count', (select count(*)::int from memberships m where m.user_id = t.id))`

const BUBLE_JSON = `json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'owner_id', t.owner_id,
  'owner', ${person('o')}, 'created_at', ${isoJson('t.created_at')},
  'member_count', (select count(*)::int from memberships m where m.buble_id = t.id))`

/**
 * The lists. Their pages are kept in memory (list-cache.ts) until a table they read notifies a
 * change: migration 0008's triggers name, per table, the columns read here, and list-cache.ts's
 * LISTS_OF_TABLE which lists read each table. Reading another table or column needs both updated.
 */
export const LISTS: Record<AdminTab | 'audit', ListSpec> = {
  users: {
    from: 'users t',
    json: raw(USER_JSON),
    search: [col('t.name'), col('t.email')],
    filter: `t.status <> 'deleted'`,
  },
  bubles: {
    from: 'bubles t join users o on o.id = t.owner_id',
    json: raw(BUBLE_JSON),
    search: [col('t.name'), col('t.slug'), via('t.owner_id', 'users', ['name', 'email'])],
  },
  events: {
    from: 'events t join bubles b on b.id = t.buble_id join users u on u.id = t.creator_id',
    json: raw(`json_build_object('id', t.id, 'title', t.title, 'description', t.description,
      'location', t.location, 'event_time', ${isoJson('t.event_time')}, 'created_at', ${isoJson('t.created_at')},
      'external_url', t.external_url, 'buble_id', t.buble_id, 'buble', ${bubleRef('b')},
      'creator_id', t.creator_id, 'creator', ${person('u')},
      'rsvps', (select json_build_object(
          'going', count(*) filter (where r.status = 'going'),
          'maybe', count(*) filter (where r.status = 'maybe'),
          'cant_go', count(*) filter (where r.status = 'cant_go'))
        from event_rsvps r where r.event_id = t.id))`),
    search: [
      col('t.title'),
      col('t.location'),
      via('t.buble_id', 'bubles', ['name']),
      via('t.creator_id', 'users', ['name']),
    ],
  },
  polls: {
    from: 'polls t join bubles b on b.id = t.buble_id join users u on u.id = t.creator_id',
    json: raw(`json_build_object('id', t.id, 'question', t.question, 'created_at', ${isoJson('t.created_at')},
      'buble_id', t.buble_id, 'buble', ${bubleRef('b')}, 'creator_id', t.creator_id, 'creator', ${person('u')},
      'options', coalesce((select json_agg(json_build_object('id', po.id, 'option_text', po.option_text,
          'votes_count', case when not t.hide_results or t.closed then po.votes_count end) order by po.position)
          from poll_options po where po.poll_id = t.id), '[]'::json),
      'totalVotes', case when not t.hide_results or t.closed then t.total_votes end, 'votersCount', t.voters_count,
      'closes_at', case when t.closes_at is not null then ${isoJson('t.closes_at')} end, 'closed', t.closed,
      'multiple', t.multiple, 'hide_results', t.hide_results, 'secret', t.secret)`),
    search: [col('t.question'), via('t.buble_id', 'bubles', ['name']), via('t.creator_id', 'users', ['name'])],
  },
  posts: {
    from: 'posts t join bubles b on b.id = t.buble_id join users u on u.id = t.author_id',
    json: raw(`json_build_object('id', t.id, 'content', t.content,
      'type', case when t.image_url is not null then 'image' when t.link_url is not null then 'link' else 'text' end,
      'image_url', t.image_url, 'link_url', t.link_url, 'is_edited', t.is_edited,
      'commentsCount', t.comments_count, 'created_at', ${isoJson('t.created_at')},
      'buble_id', t.buble_id, 'buble_name', b.name, 'author_id', t.author_id, 'author', ${person('u')})`),
    search: [col('t.content'), via('t.author_id', 'users', ['name', 'email']), via('t.buble_id', 'bubles', ['name'])],
  },
  invites: {
    from: `invites t join bubles b on b.id = t.buble_id
      left join users c on c.id = t.created_by_id left join users x on x.id = t.used_by_id`,
    json: (now) => sql`json_build_object('id', t.id, 'code', t.code, 'email', t.email,
      'buble_id', t.buble_id, 'buble', ${sql.raw(bubleRef('b'))},
      'createdBy', case when c.id is null then null else ${sql.raw(person('c'))} end,
      'usedBy', case when x.id is null then null else ${sql.raw(person('x'))} end,
      'used_by_id', t.used_by_id, 'used_at', ${sql.raw(isoJson('t.used_at'))},
      'created_at', ${sql.raw(isoJson('t.created_at'))}, 'expires_at', ${sql.raw(isoJson('t.expires_at'))},
      'status', case when t.used_by_id is not null or t.used_at is not null then 'used'
        when t.expires_at <= ${now.toISOString()}::timestamptz then 'expired' else 'active' end)`,
    search: [
      col('t.code'),
      col('t.email'),
      via('t.buble_id', 'bubles', ['name']),
      via('t.created_by_id', 'users', ['name']),
    ],
  },
  audit: {
    from: 'admin_audit t',
    json: raw(`json_build_object('id', t.id, 'admin_id', t.admin_id, 'admin_email', t.admin_email,
      'action', t.action, 'target_type', t.target_type, 'target_id', t.target_id,
      'target_label', t.target_label, 'detail', t.detail, 'created_at', ${isoJson('t.created_at')})`),
    search: [col('t.admin_email'), col('t.action'), col('t.target_type'), col('t.target_label')],
  },
}

export interface ListRows extends AdminRows {
  audit: AdminAuditEntry
}
export type ListName = keyof ListRows

/** A LIKE pattern matching `text` anywhere: `%`, `_` and `\` in it match only themselves. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

/** Where a keyset batch starts: after the row with this exact `created_at` (as text, full precision) and id. */
export interface Keyset {
  at: string
  id: string
}

function whereOf(spec: ListSpec, search: string | undefined, extra: SQL[] = []): SQL {
  const parts: SQL[] = []
  if (spec.filter) parts.push(sql.raw(spec.filter))
  if (search) {
    const pattern = containsPattern(search)
    parts.push(
      sql`(${sql.join(
        spec.search.map((match) => match(pattern)),
        sql` or `,
      )})`,
    )
  }
  parts.push(...extra)
  return parts.length > 0 ? sql`where ${sql.join(parts, sql` and `)}` : sql``
}

const ORDER = sql.raw('order by t.created_at desc, t.id desc')

/**
 * One page of a list and the number of rows matching. Unsearched, two statements run side by side:
 * the page walks the newest-first index. A search finds its matches first (the trigram indexes, a
 * materialized CTE) and counts and pages those in the same statement: walking the index newest
 * first and filtering, a rare term whose matches are all old read most of the table (the plans and
 * timings: docs/decisions/0053).
 */
export async function listPage<N extends ListName>(
  db: Executor,
  name: N,
  opts: { page: number; limit: number; search?: string; now: Date },
): Promise<{ rows: ListRows[N][]; total: number }> {
  const spec = LISTS[name]
  const where = whereOf(spec, opts.search)
  const from = sql.raw(spec.from)
  const offset = (opts.page - 1) * opts.limit
  if (opts.search) {
    const [row] = rowsOf<{ total: number; rows: ListRows[N][] | string }>(
      await db.execute(sql`with matches as materialized (select t.id, t.created_at from ${from} ${where})
        select (select count(*)::int from matches) as total,
          coalesce((select json_agg(p.data order by p.created_at desc, p.id desc) from (
            select ${spec.json(opts.now)} as data, t.created_at, t.id from ${from}
            where t.id in (select id from matches order by created_at desc, id desc limit ${opts.limit} offset ${offset})
          ) p), '[]'::json) as rows`),
    )
    const rows = row?.rows ?? []
    return { rows: typeof rows === 'string' ? JSON.parse(rows) : rows, total: Number(row?.total ?? 0) }
  }
  const [rows, count] = await Promise.all([
    db.execute(
      sql`select ${spec.json(opts.now)} as data from ${from} ${where} ${ORDER} limit ${opts.limit} offset ${offset}`,
    ),
    db.execute(sql`select count(*)::int as n from ${from} ${where}`),
  ])
  return {
    rows: rowsOf<{ data: ListRows[N] }>(rows).map((row) => row.data),
    total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0),
  }
}

/** Every matching row, `batchSize` at a time by keyset: never the whole result in memory. */
export async function* listBatches<N extends ListName>(
  db: Executor,
  name: N,
  opts: { search?: string; now: Date; batchSize?: number },
): AsyncGenerator<ListRows[N][]> {
  const spec = LISTS[name]
  const size = opts.batchSize ?? 1000
  let after: Keyset | undefined
  for (;;) {
    const keyset = after ? [sql`(t.created_at, t.id) < (${after.at}::timestamptz, ${after.id}::uuid)`] : []
    const result = await db.execute(
      sql`select ${spec.json(opts.now)} as data, t.created_at::text as at, t.id as id
        from ${sql.raw(spec.from)} ${whereOf(spec, opts.search, keyset)} ${ORDER} limit ${size}`,
    )
    const rows = rowsOf<{ data: ListRows[N]; at: string; id: string }>(result)
    if (rows.length > 0) yield rows.map((row) => row.data)
    if (rows.length < size) return
    const last = rows[rows.length - 1]!
    after = { at: last.at, id: last.id }
  }
}

/** One row of a list by id, as the list shows it (deleted accounts excluded). */
export async function listRow<N extends ListName>(
  db: Executor,
  name: N,
  id: string,
  now: Date,
): Promise<ListRows[N] | undefined> {
  const spec = LISTS[name]
  const where = whereOf(spec, undefined, [sql`t.id = ${id}::uuid`])
  const result = await db.execute(sql`select ${spec.json(now)} as data from ${sql.raw(spec.from)} ${where}`)
  return rowsOf<{ data: ListRows[N] }>(result)[0]?.data
}

/** A user's view: the row and the bubles they belong to. */
export async function userDetail(db: Executor, id: string): Promise<AdminUserDetail | undefined> {
  const result = await db.execute(sql`select (${sql.raw(USER_JSON)}::jsonb || jsonb_build_object('bubles',
      coalesce((select jsonb_agg(jsonb_build_object('id', b.id, 'name', b.name, 'slug', b.slug, 'role', m.role,
        'joined_at', ${sql.raw(isoJson('m.joined_at'))}) order by m.joined_at, b.id)
        from memberships m join bubles b on b.id = m.buble_id where m.user_id = t.id), '[]'::jsonb))) as data
    from users t where t.id = ${id}::uuid and t.status <> 'deleted'`)
  return rowsOf<{ data: AdminUserDetail }>(result)[0]?.data
}

/** A buble's view: the row, every member (longest-standing first) and its content counts. */
export async function bubleDetail(db: Executor, id: string): Promise<AdminBubleDetail | undefined> {
  const result = await db.execute(sql`select (${sql.raw(BUBLE_JSON)}::jsonb || jsonb_build_object(
      'members', coalesce((select jsonb_agg(jsonb_build_object('user_id', m.user_id, 'role', m.role,
          'joined_at', ${sql.raw(isoJson('m.joined_at'))},
          'user', jsonb_build_object('name', u.name, 'email', u.email, 'avatar_url', u.avatar_url))
        order by m.joined_at, m.user_id)
        from memberships m join users u on u.id = m.user_id where m.buble_id = t.id), '[]'::jsonb),
      'counts', jsonb_build_object(
        'posts', (select count(*)::int from posts p where p.buble_id = t.id),
        'events', (select count(*)::int from events e where e.buble_id = t.id),
        'polls', (select count(*)::int from polls q where q.buble_id = t.id)))) as data
    from bubles t join users o on o.id = t.owner_id where t.id = ${id}::uuid`)
  return rowsOf<{ data: AdminBubleDetail }>(result)[0]?.data
}

/** The platform's counters, in one statement. */
export async function counters(db: Executor, now: Date): Promise<AdminStats & { expiredInvites: number }> {
  const at = now.toISOString()
  const unused = sql.raw('used_by_id is null and used_at is null')
  const result = await db.execute(sql`select
      (select count(*)::int from users where status <> 'deleted') as "totalUsers",
      (select count(*)::int from bubles) as "totalBubles",
      (select count(*)::int from events) as "totalEvents",
      (select count(*)::int from polls) as "totalPolls",
      (select count(*)::int from invites where ${unused} and expires_at > ${at}::timestamptz) as "activeInvites",
      (select count(*)::int from invites where ${unused} and expires_at <= ${at}::timestamptz) as "expiredInvites"`)
  const row = rowsOf<Record<string, number>>(result)[0] ?? {}
  const n = (key: string) => Number(row[key] ?? 0)
  return {
    totalUsers: n('totalUsers'),
    totalBubles: n('totalBubles'),
    totalEvents: n('totalEvents'),
    totalPolls: n('totalPolls'),
    activeInvites: n('activeInvites'),
    expiredInvites: n('expiredInvites'),
  }
}
