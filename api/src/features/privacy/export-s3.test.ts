/** The data export suite again, with every file in a bucket (s3rver on 127.0.0.1): files/ is streamed from S3. */

import { useS3InHarness } from '../../testing/harness.ts'

useS3InHarness()
await import('./export.test.ts')
