/**
 * Personal data export ("data portability"): one ZIP of everything a user wrote or uploaded, built
 * while it is sent. JSON files are written row batch by row batch and files are streamed from disk,
 * each only when the client has read what came before, so memory stays flat however much there is.
 */

import { type PassThrough, Readable } from 'node:stream'
import { ZipFile } from 'yazl'
import type { Deps } from '../../deps.ts'
import { toUser, type UserRow } from '../../lib/accounts.ts'
import { exportQueries } from './queries.ts'
import { exportReadme } from './readme.ts'

export type ExportService = ReturnType<typeof exportService>

/** `buble-data-YYYY-MM-DD.zip`, dated in UTC. */
export const exportFileName = (at: Date) => `buble-data-${at.toISOString().slice(0, 10)}.zip`

/** A JSON array as text, one row per line, read batch by batch from `rows`. */
export function jsonArray(rows: AsyncIterable<object[]>): Readable {
  async function* text() {
    let first = true
    for await (const batch of rows) {
      const lines = batch.map((row) => `  ${JSON.stringify(row)}`).join(',\n')
      yield Buffer.from(`${first ? '[\n' : ',\n'}${lines}`)
      first = false
    }
    yield Buffer.from(first ? '[]\n' : '\n]\n')
  }
  return Readable.from(text(), { objectMode: false })
}

const profileOf = (user: UserRow) => ({
  ...toUser(user),
  push_enabled: user.pushEnabled,
  event_reminder: user.eventReminder,
  deletion_scheduled_for: user.deletionScheduledFor?.toISOString() ?? null,
  updated_at: user.updatedAt.toISOString(),
})

export function exportService({ db, storage, log, now, rateLimits }: Deps) {
  /**
   * The archive's bytes. A failure part way (a query, a file) errors the stream, so the download
   * breaks off instead of ending as a shorter archive that looks whole; it is logged.
   */
  function archive(user: UserRow, at: Date): Readable {
    const queries = exportQueries(db, user.id)
    const zip = new ZipFile()
    const out = zip.outputStream as PassThrough
    let reading: Readable | undefined
    const fail = (err: unknown) => {
      if (out.destroyed) return
      log.error('data export failed', { user_id: user.id, err })
      reading?.destroy()
      out.destroy(err instanceof Error ? err : new Error(String(err)))
    }
    zip.on('error', fail)
    // The client went away: stop reading rows and files for it.
    out.on('close', () => reading?.destroy())
    const add = (name: string, open: () => Readable, options: { size?: number; compress?: boolean } = {}) =>
      zip.addReadStreamLazy(name, { mtime: at, ...options }, (ready) => {
        reading = open().on('error', fail)
        ready(null, reading)
      })

    zip.addBuffer(Buffer.from(exportReadme(user.email, at)), 'README.txt', { mtime: at })
    zip.addBuffer(Buffer.from(`${JSON.stringify(profileOf(user), null, 2)}\n`), 'profile.json', { mtime: at })
    for (const [name, rows] of queries.files) add(name, () => jsonArray(rows()))

    // Files are listed while the JSON is written; only those still on disk get an entry.
    void (async () => {
      for await (const batch of queries.uploads()) {
        for (const { key } of batch) {
          if (out.destroyed) return
          const file = await storage.locate(key)
          // Uploaded images and videos are compressed already: stored as they are.
          if (file) add(`files/${key}`, () => file.read(), { size: file.size, compress: false })
        }
      }
      zip.end()
    })().catch(fail)
    return out
  }

  return {
    /** The caller's own export, counted against their hourly allowance (429 past it). */
    async download(user: UserRow): Promise<{ fileName: string; body: Readable }> {
      await rateLimits.consume(['dataExportsPerUser', user.id])
      const at = now()
      return { fileName: exportFileName(at), body: archive(user, at) }
    },
  }
}
