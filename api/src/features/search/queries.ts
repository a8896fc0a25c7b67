/**
 * One buble's full text search as one statement (decision 95): the newest hits of each kind, each
 * through its `search_vector` (db/schema.ts: stored, GIN-indexed), merged newest first, and only
 * the page's rows get a highlighted snippet (ts_headline parses text again) and their author.
 */

import type { SearchCursor, SearchKind } from '@buble/shared/search'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { rowsOf } from '../../lib/sql-json.ts'

/** Marks ts_headline puts around matching words; stripped from the text first, so no content can fake one. */
export const MARK_OPEN = '\u0001'
export const MARK_CLOSE = '\u0002'

export interface SearchRow {
  kind: SearchKind
  id: string
  post_id: string | null
  /** The snippet with the matching words between MARK_OPEN and MARK_CLOSE. */
  marked: string
  /** The whole text, only when it holds a mention token (`<@id>`): its snippet is made again, by name. */
  doc: string | null
  created_at: string
  /** created_at to the microsecond, for the next page's cursor. */
  cursor_at: string
  author_id: string
  author_name: string
  author_avatar: string | null
}

const query = (q: string) => sql`(websearch_to_tsquery('english', ${q}) || websearch_to_tsquery('simple', ${q}))`

/** The end of one kind's part of a page: after `before` (when given), newest first, at most `limit`. */
const newestOf = (alias: string, before: SearchCursor | undefined, limit: number) => {
  const t = sql.raw(alias)
  const after = before
    ? sql` and (${t}.created_at, ${t}.id) < (${before.created_at}::timestamptz, ${before.id}::uuid)`
    : sql``
  return sql`${after} order by ${t}.created_at desc, ${t}.id desc limit ${limit}`
}

const HEADLINE_OPTIONS = `StartSel=${MARK_OPEN}, StopSel=${MARK_CLOSE}, MaxWords=30, MinWords=12`

/**
 * The snippet of `doc`: stemmed matches first (the english parse); a query only `simple` matched
 * (stop words, "the who") finds nothing there, and is marked in a `simple` parse instead.
 */
const headline = (doc: SQL, q: SQL) => sql`(select case when strpos(h.en, ${MARK_OPEN}) > 0 then h.en
    else ts_headline('simple', h.doc, ${q}, ${HEADLINE_OPTIONS}) end
  from (select d.doc, ts_headline('english', d.doc, ${q}, ${HEADLINE_OPTIONS}) as en
    from (select translate(${doc}, ${MARK_OPEN + MARK_CLOSE}, '') as doc) d) h)`

/** The page of `bubleId`'s hits for `text`, newest first, `limit` of them at most. */
export async function searchBuble(
  db: Executor,
  bubleId: string,
  text: string,
  before: SearchCursor | undefined,
  limit: number,
): Promise<SearchRow[]> {
  const q = query(text)
  const newest = (alias: string) => newestOf(alias, before, limit)
  const result = await db.execute(sql`
    with hits as (
      (select 'post' as kind, p.id, null::uuid as post_id, p.content as doc, p.created_at, p.author_id as who
        from posts p where p.buble_id = ${bubleId} and p.search_vector @@ ${q}${newest('p')})
      union all
      (select 'comment', c.id, c.post_id, c.content, c.created_at, c.author_id
        from comments c where c.buble_id = ${bubleId} and c.search_vector @@ ${q}${newest('c')})
      union all
      (select 'chat', m.id, null, m.content, m.created_at, m.sender_id
        from chat_messages m where m.buble_id = ${bubleId} and m.search_vector @@ ${q}${newest('m')})
      union all
      (select 'event', e.id, null, e.title || coalesce(E'\n' || e.location, '') || coalesce(E'\n' || e.description, ''),
          e.created_at, e.creator_id
        from events e where e.buble_id = ${bubleId}
          and e.search_vector @@ ${q}${newest('e')})
      union all
      (select 'poll', o.id, null, o.question || coalesce((select string_agg(E'\n' || x.option_text, '' order by x.position)
            from poll_options x where x.poll_id = o.id), ''),
          o.created_at, o.creator_id
        from polls o where o.buble_id = ${bubleId} and (o.search_vector @@ ${q}
          or exists (select 1 from poll_options x where x.poll_id = o.id and x.search_vector @@ ${q}))${newest('o')})
    ),
    top as (select * from hits order by created_at desc, id desc limit ${limit})
    select t.kind, t.id, t.post_id, ${headline(sql`t.doc`, q)} as marked,
      case when strpos(t.doc, '<@') > 0 then t.doc end as doc,
      to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
      u.id as author_id, u.name as author_name, u.avatar_url as author_avatar
    from top t join users u on u.id = t.who
    order by t.created_at desc, t.id desc`)
  return rowsOf<SearchRow>(result)
}

/**
 * Snippets of `docs` (texts as people read them: mentions by name) for `text`, in order. A stored
 * mention is `<@id>`, which the parser reads as a few words: its snippet would show the id, or half of it.
 */
export async function headlines(db: Executor, docs: readonly string[], text: string): Promise<string[]> {
  const result = await db.execute(sql`select ${headline(sql`x.doc`, query(text))} as marked
    from jsonb_array_elements_text(${JSON.stringify(docs)}::jsonb) with ordinality as x(doc, n)
    order by x.n`)
  return rowsOf<{ marked: string }>(result).map((row) => row.marked)
}
