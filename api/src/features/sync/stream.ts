/**
 * `GET /api/stream` (CONTRACT §5): server-sent events telling a signed-in device to pull. It sends
 * `ready` once connected (the device pulls then, to catch up on what it missed while away), `poke
 * {buble_id, entity}` for changes in the user's bubles or to their own set of bubles, and `resync`
 * when pokes may have been lost. A comment every heartbeat keeps proxies from closing the
 * connection; each heartbeat checks the token again, so an expired one ends the stream. A revoked
 * one (password change or reset, deletion) ends it at once: the revocation is announced on the change
 * bus, in every process, and the user's streams check their token when they hear it.
 */

import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { Db } from '../../db/client.ts'
import { memberships } from '../../db/schema.ts'
import type { AppEnv, Authenticate } from '../../lib/auth.ts'
import type { BusEvent, ChangeBus } from '../../lib/change-bus.ts'
import type { Logger } from '../../lib/log.ts'

export interface StreamDeps {
  db: Db
  bus: ChangeBus
  authenticate: Authenticate
  log: Logger
  heartbeatMs?: number | undefined
}

const HEARTBEAT_MS = 25_000

async function bubleIdsOf(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db.select({ id: memberships.bubleId }).from(memberships).where(eq(memberships.userId, userId))
  return new Set(rows.map((row) => row.id))
}

export function streamHandler({ db, bus, authenticate, log, heartbeatMs = HEARTBEAT_MS }: StreamDeps) {
  return (c: Context<AppEnv>) => {
    const user = c.var.user
    const header = c.req.header('authorization')
    c.header('X-Accel-Buffering', 'no')
    return streamSSE(c, async (stream) => {
      // The loop below sleeps until the next heartbeat, or until `wake` (the token was found revoked,
      // the client left).
      let ended = false
      let wake = () => {}
      const end = () => {
        ended = true
        wake()
      }
      // Checks the token now: a revoked one ends the stream, a valid one (a device that signed in
      // again) keeps it.
      const recheck = () => {
        authenticate(header).catch(end)
      }
      // Heard before anything is awaited: a revocation committed from here on is not missed.
      const stopRevoked = bus.onRevoked((userId) => {
        if (userId === user.id) recheck()
      })
      let bubles: Set<string>
      try {
        // The second check covers a revocation that committed after the request's own check
        // but before the line above.
        ;[bubles] = await Promise.all([bubleIdsOf(db, user.id), authenticate(header)])
      } catch {
        stopRevoked()
        return
      }
      // Writes go one after another: a poke must never interleave with a heartbeat.
      let writing: Promise<unknown> = Promise.resolve()
      const send = (event: string, data: unknown) => {
        writing = writing.then(() => stream.writeSSE({ event, data: JSON.stringify(data) })).catch(() => stream.abort())
      }
      const onEvent = (event: BusEvent) => {
        if ('lost' in event) return
        if ('resync' in event) {
          // Revocations may have been missed as well as pokes.
          recheck()
          return send('resync', {})
        }
        const poke = { buble_id: event.buble_id, entity: event.entity }
        if (event.user_id) {
          if (event.user_id !== user.id) return
          if (event.entity !== 'buble') return send('poke', poke)
          // Joined or lost a buble: follow its pokes from now on (or stop).
          writing = writing
            .then(async () => {
              bubles = await bubleIdsOf(db, user.id)
            })
            .catch((err) => log.warn('stream could not reload bubles', { err }))
          return send('poke', poke)
        }
        if (bubles.has(event.buble_id)) send('poke', poke)
      }
      const unsubscribe = bus.subscribe(onEvent)
      stream.onAbort(() => {
        unsubscribe()
        wake()
      })
      send('ready', {})
      try {
        while (!ended && !stream.aborted && !stream.closed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, heartbeatMs)
            wake = () => {
              clearTimeout(timer)
              resolve()
            }
          })
          if (ended || stream.aborted || stream.closed) break
          await authenticate(header)
          writing = writing.then(() => stream.write(': keepalive\n\n')).catch(() => stream.abort())
          await writing
        }
      } catch {
        // The token expired or was revoked: the device reconnects with a fresh one, or signs out.
      } finally {
        unsubscribe()
        stopRevoked()
      }
    })
  }
}
