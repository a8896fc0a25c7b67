/**
 * CSV exports of the admin lists (CONTRACT §3.4, §7; spec part 2 §9): every matching row, written
 * batch by batch as the database yields them; a header row, no id column, RFC 4180 quoting (CRLF
 * records), and a cell a spreadsheet would run as a formula prefixed with `'`.
 */

import type { AdminRows, AdminTab } from '@buble/shared/admin'
import { stringify } from 'csv-stringify/sync'

type Columns<Row> = readonly (readonly [header: string, cell: (row: Row) => string | number | boolean | null])[]

const person = (p: { name: string; email: string } | null) => p?.name ?? ''

const COLUMNS: { [T in AdminTab]: Columns<AdminRows[T]> } = {
  users: [
    ['Name', (u) => u.name],
    ['Email', (u) => u.email],
    ['Role', (u) => u.role],
    ['Status', (u) => u.status],
    ['Email verified', (u) => (u.email_verified ? 'yes' : 'no')],
    ['Bubles', (u) => u.bubles_count],
    ['Created at', (u) => u.created_at],
  ],
  bubles: [
    ['Name', (b) => b.name],
    ['Slug', (b) => b.slug],
    ['Owner', (b) => b.owner.name],
    ['Owner email', (b) => b.owner.email],
    ['Members', (b) => b.member_count],
    ['Created at', (b) => b.created_at],
  ],
  events: [
    ['Title', (e) => e.title],
    ['Buble', (e) => e.buble.name],
    ['Creator', (e) => e.creator.name],
    ['Creator email', (e) => e.creator.email],
    ['Event time', (e) => e.event_time],
    ['Location', (e) => e.location],
    ['Description', (e) => e.description],
    ['Going', (e) => e.rsvps.going],
    ['Created at', (e) => e.created_at],
  ],
  polls: [
    ['Question', (p) => p.question],
    ['Buble', (p) => p.buble.name],
    ['Creator', (p) => p.creator.name],
    ['Creator email', (p) => p.creator.email],
    ['Options', (p) => p.options.map((o) => `${o.option_text} (${o.votes_count ?? 'hidden'})`).join('; ')],
    ['Total votes', (p) => p.totalVotes ?? 'hidden'],
    ['Created at', (p) => p.created_at],
  ],
  posts: [
    ['Content', (p) => p.content],
    ['Type', (p) => p.type],
    ['Author', (p) => p.author.name],
    ['Author email', (p) => p.author.email],
    ['Buble', (p) => p.buble_name],
    ['Comments', (p) => p.commentsCount],
    ['Created at', (p) => p.created_at],
  ],
  invites: [
    ['Code', (i) => i.code],
    ['Buble', (i) => i.buble.name],
    ['Email', (i) => i.email],
    ['Created by', (i) => person(i.createdBy)],
    ['Used by', (i) => person(i.usedBy)],
    ['Status', (i) => i.status],
    ['Expires at', (i) => i.expires_at],
    ['Created at', (i) => i.created_at],
  ],
}

/** Lines of CSV: RFC 4180 quoting, CRLF, formula cells escaped (csv-stringify's `escape_formulas`). */
export function csvLines(records: readonly (readonly (string | number | boolean | null)[])[]): string {
  // Every cell as text, so a negative number is escaped like any other leading `-`.
  const cells = records.map((record) => record.map((cell) => (cell === null ? '' : String(cell))))
  // `quote_record_delimiter`: with a record delimiter set, a lone LF or CR in a cell would otherwise go unquoted.
  return stringify(cells, { escape_formulas: true, record_delimiter: 'windows', quote_record_delimiter: true })
}

/** The CSV text of a list, header first, one chunk per batch of rows. */
export async function* csvChunks<T extends AdminTab>(
  tab: T,
  batches: AsyncIterable<AdminRows[T][]>,
): AsyncGenerator<string> {
  const columns = COLUMNS[tab] as Columns<AdminRows[T]>
  yield csvLines([columns.map(([header]) => header)])
  for await (const rows of batches) yield csvLines(rows.map((row) => columns.map(([, cell]) => cell(row))))
}

/** `users-2026-11-25.csv`: named by tab and (UTC) date. */
export const csvFilename = (tab: AdminTab, at: Date) => `${tab}-${at.toISOString().slice(0, 10)}.csv`

const encoder = new TextEncoder()

/** A response body pulling text chunks on demand (backpressure), closing the source if the client goes. */
export function byteStream(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next()
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(next.value))
      } catch (err) {
        controller.error(err)
      }
    },
    async cancel() {
      await chunks.return(undefined)
    },
  })
}
