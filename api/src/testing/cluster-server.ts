/**
 * The server each node of the cluster test runs (testing/cluster.ts): the real one, booted as
 * server.ts boots it, with outbound fetches allowed to reach 127.0.0.1, where the test's fake push
 * service listens, and the jobs run every CLUSTER_JOB_INTERVAL_MS (a test cannot wait a minute).
 * Test code only: no setting of the real server reaches these options.
 */

import { bootOrExit } from '../server.ts'

const interval = Number(process.env.CLUSTER_JOB_INTERVAL_MS)
bootOrExit({ allowLoopbackFetch: true, jobIntervalMs: interval > 0 ? interval : undefined })
