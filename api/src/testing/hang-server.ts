/**
 * A test server whose writes can hang on purpose: a push carrying a post whose content is
 * BUBLE_TEST_HANG_ON holds its transaction open for good (its version lock too, and PGlite's only
 * connection), as a query that never comes back would. BUBLE_TEST_DB_TIMEOUTS (JSON) shortens the
 * database's bounds. Test code only: the real server (server.ts) has no such switch.
 */

import type { DbTimeouts } from '../db/client.ts'
import { bootOrExit } from '../server.ts'

const marker = process.env.BUBLE_TEST_HANG_ON ?? ''
const timeouts = process.env.BUBLE_TEST_DB_TIMEOUTS
  ? (JSON.parse(process.env.BUBLE_TEST_DB_TIMEOUTS) as DbTimeouts)
  : undefined

bootOrExit({
  dbTimeouts: timeouts,
  pushHooks: {
    async duringWrite(mutations) {
      if (marker && mutations.some((m) => m.args.content === marker)) await new Promise(() => {})
    },
  },
})
