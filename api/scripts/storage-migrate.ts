/**
 * `npm run storage:migrate`: copies DATA_DIR/uploads into the bucket named by S3_*, with the
 * server's own environment. Safe to interrupt and run again; exits 1 when a file was not copied.
 */

import path from 'node:path'
import { ConfigError, loadConfig } from '../src/config.ts'
import { createLogger } from '../src/lib/log.ts'
import { migrateStorage } from '../src/lib/storage-migrate.ts'
import { createS3Storage } from '../src/lib/storage-s3.ts'

try {
  const config = loadConfig()
  if (!config.s3) {
    process.stderr.write(
      'storage:migrate needs the bucket: set S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY\n',
    )
    process.exit(1)
  }
  const dir = path.join(config.dataDir, 'uploads')
  process.stdout.write(`Copying ${dir} to bucket ${config.s3.bucket} at ${config.s3.endpoint}\n`)
  const counts = await migrateStorage({
    dir,
    to: createS3Storage(config.s3, createLogger('error')),
    report: (line) => process.stdout.write(`${line}\n`),
  })
  process.stdout.write(
    `${counts.files} files: ${counts.copied} copied (${(counts.bytesCopied / 1024 / 1024).toFixed(1)} MB, sizes verified), ` +
      `${counts.skipped} already in the bucket, ${counts.failed} failed, ${counts.ignored} other entries ignored\n`,
  )
  if (counts.failed > 0) {
    process.stdout.write('Run it again to copy the ones that failed.\n')
    process.exit(1)
  }
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`storage:migrate cannot start: ${err.message}\n`)
    process.exit(1)
  }
  throw err
}
