/**
 * The server the browser tests run: the real one, with outbound fetches allowed to reach
 * 127.0.0.1, where the tests' fake weather and Ticketmaster services listen. Test code only: the
 * option is set here in code, and no setting of the real server (server.ts) reaches it.
 */

import { bootOrExit } from '../server.ts'

// The browser tests' platform admin (pwa/e2e/admin.spec.ts): this address becomes an admin once verified.
process.env.BUBLE_ADMIN_EMAILS ??= 'platform-admin@e2e.example.com'

bootOrExit({ allowLoopbackFetch: true })
