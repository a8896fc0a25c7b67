/** Keyset paging for exports: a query read to its end in batches, each asked for only when the last is used. */

import { gt } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'

/** Rows per query: big enough to keep round trips few, small enough to keep memory flat. */
export const EXPORT_BATCH = 500

type Page<Row> = (after: Row | undefined) => Promise<Row[]>

/** Reads a keyset-paged query to its end, one batch at a time; the next batch is asked for only when this one is used. */
export async function* keyset<Row>(page: Page<Row>): AsyncGenerator<Row[]> {
  let after: Row | undefined
  for (;;) {
    const rows = await page(after)
    if (rows.length > 0) yield rows
    if (rows.length < EXPORT_BATCH) return
    after = rows[rows.length - 1]
  }
}

export const iso = (date: Date | null) => date?.toISOString() ?? null

/**
 * Rows after `value` in `column`; none for the first page. Ids are the keys, compared as uuids:
 * created_at cannot be one (JavaScript dates lose PostgreSQL's microseconds, so a page would repeat rows).
 */
export const after = (column: AnyPgColumn, value: string | undefined) =>
  value === undefined ? undefined : gt(column, value)
