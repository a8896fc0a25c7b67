/**
 * The server each node of the cluster test runs (testing/cluster.ts): the real one, booted as
 * server.ts boots it, with outbound fetches allowed to reach 127.0.0.1, where the test's fake push
 * service listens. Test code only: no setting of the real server reaches the option.
 */

import { bootOrExit } from '../server.ts'

bootOrExit({ allowLoopbackFetch: true })
