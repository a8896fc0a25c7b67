/**
 * The server `npm run bench` runs: the real one, with outbound fetches allowed to reach 127.0.0.1,
 * where the bench's local push service listens (chat-send-with-pushes). Bench code only: the option
 * is set here in code, and no setting of the real server (server.ts) reaches it.
 */

import { bootOrExit } from '../server.ts'

bootOrExit({ allowLoopbackFetch: true })
