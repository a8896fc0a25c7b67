/**
 * A test server that dies on purpose: after a push batch holding a mutation named in
 * BUBLE_TEST_CRASH_AFTER_COMMIT (comma-separated mutation ids) has committed, and before its answer
 * is sent, the process kills itself, as a power cut would. Test code only: the real server
 * (server.ts) has no such switch, and no setting reaches this hook.
 */

import { bootOrExit } from '../server.ts'

const doomed = new Set((process.env.BUBLE_TEST_CRASH_AFTER_COMMIT ?? '').split(',').filter(Boolean))

bootOrExit({
  pushHooks: {
    afterCommit(mutations) {
      if (mutations.some((mutation) => doomed.has(mutation.id))) process.kill(process.pid, 'SIGKILL')
    },
  },
})
