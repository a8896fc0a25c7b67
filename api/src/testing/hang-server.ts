/**
 * A test server whose writes can hang on purpose: a push carrying a post whose content is
 * BUBLE_TEST_HANG_ON holds its transaction open for good, with its buble's row locked (as a write
 * that has stamped it holds it) and PGlite's only connection, as a query that never comes back would. BUBLE_TEST_DB_TIMEOUTS (JSON) shortens the
 * database's bounds. Test code only: the real server (server.ts) has no such switch.
 */

import { sql } from 'drizzle-orm'
import type { DbTimeouts } from '../db/client.ts'
import { bootOrExit } from '../server.ts'

const marker = process.env.BUBLE_TEST_HANG_ON ?? ''
const timeouts = process.env.BUBLE_TEST_DB_TIMEOUTS
  ? (JSON.parse(process.env.BUBLE_TEST_DB_TIMEOUTS) as DbTimeouts)
  : undefined

bootOrExit({
  dbTimeouts: timeouts,
  pushHooks: {
    async duringWrite(mutations, tx) {
      const hung = marker ? mutations.find((m) => m.args.content === marker) : undefined
      if (!hung) return
      await tx.execute(sql`select 1 from bubles where id = ${String(hung.args.buble_id)} for no key update`)
      await new Promise(() => {})
    },
  },
})
