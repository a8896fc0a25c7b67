/**
 * `GET /api/stream` (CONTRACT §5): server-sent events telling a signed-in device to pull. It sends
 * `ready` once connected (the device pulls then, to catch up on what it missed while away), `poke
 * {buble_id, entity}` for changes in the user's bubles or to their own set of bubles, and `resync`
 * when pokes may have been lost. A comment every heartbeat keeps proxies from closing the
 * connection; each heartbeat checks the token again, so an expired one ends the stream. A revoked
 * one (password change or reset, deletion) or an ended session (signed out) ends it at once: the
 * revocation is announced on the change bus, in every process, and the user's streams (or the
 * session's) check their token when they hear it.
 *
 * Pokes reach the streams through the hub (stream-hub.ts), one write each; this file opens a stream,
 * keeps its heartbeat and ends it.
 */

import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import type { Db } from '../../db/client.ts'
import { memberships } from '../../db/schema.ts'
import type { AppEnv, Authenticate } from '../../lib/auth.ts'
import type { ChangeBus } from '../../lib/change-bus.ts'
import type { Logger } from '../../lib/log.ts'
import { createStreamHub, type HubStream } from './stream-hub.ts'
import { encodeEvent, openSink, SSE_HEADERS } from './stream-sink.ts'

export interface StreamDeps {
  db: Db
  bus: ChangeBus
  authenticate: Authenticate
  log: Logger
  heartbeatMs?: number | undefined
}

const HEARTBEAT_MS = 25_000
const READY = encodeEvent('ready', {})

async function bubleIdsOf(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db.select({ id: memberships.bubleId }).from(memberships).where(eq(memberships.userId, userId))
  return new Set(rows.map((row) => row.id))
}

export function streamHandler({ db, bus, authenticate, log, heartbeatMs = HEARTBEAT_MS }: StreamDeps) {
  const hub = createStreamHub({ bus, bublesOf: (userId) => bubleIdsOf(db, userId), log })
  return (c: Context<AppEnv>) => {
    const header = c.req.header('authorization')
    const sink = openSink(c)
    let timer: NodeJS.Timeout | undefined
    const stream: HubStream = {
      userId: c.var.user.id,
      sessionId: c.var.sessionId,
      ready: false,
      write: (bytes) => sink.write(bytes),
      // Checks the token now: a revoked one ends the stream, a valid one (a device that signed in
      // again) keeps it.
      recheck: () => {
        authenticate(header).catch(() => sink.end())
      },
    }
    sink.onClose(() => {
      clearTimeout(timer)
      hub.leave(stream)
    })
    const heartbeat = () => {
      timer = setTimeout(() => {
        authenticate(header).then(
          () => {
            if (sink.closed) return
            sink.keepalive()
            heartbeat()
          },
          // The token expired or was revoked: the device reconnects with a fresh one, or signs out.
          () => sink.end(),
        )
      }, heartbeatMs)
    }
    // Heard before anything is awaited: a revocation committed from here on is not missed.
    hub.join(stream)
    // The second check covers a revocation that committed after the request's own check but before
    // the line above.
    Promise.all([sink.opened, hub.settled(stream), authenticate(header)]).then(
      ([opened]) => {
        if (!opened || sink.closed) return sink.end()
        sink.write(READY)
        stream.ready = true
        heartbeat()
      },
      () => sink.end(),
    )
    c.header('X-Accel-Buffering', 'no')
    return c.body(sink.body, 200, SSE_HEADERS)
  }
}
