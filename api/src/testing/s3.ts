/** A real S3 protocol server (s3rver) on 127.0.0.1 for tests, with one bucket, on a temp directory. */

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { S3Settings } from '../config.ts'
import { createS3Client } from '../lib/storage-s3.ts'

export const TEST_BUCKET = 'buble-test'

export interface TestS3 {
  settings: S3Settings
  /** The same settings as S3_* environment variables. */
  env: Record<string, string>
  /** Stops the server (the bucket is then "down"); the files stay on disk until close. */
  stop(): Promise<void>
  /** Whether the bucket holds an object under `key`. */
  has(key: string): Promise<boolean>
  /** Starts it again on the same port and files (the bucket is back). */
  start(): Promise<void>
  close(): Promise<void>
}

export async function startTestS3(): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'buble-s3-'))
  const serverOn = (port: number) =>
    new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] })
  let server = serverOn(0)
  const { port } = await server.run()
  let running = true
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: TEST_BUCKET,
    region: 'us-east-1',
    // s3rver's fixed credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  }
  const stop = async () => {
    if (!running) return
    running = false
    await server.close()
  }
  return {
    settings,
    env: {
      S3_ENDPOINT: settings.endpoint,
      S3_BUCKET: settings.bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop,
    async has(key) {
      const client = createS3Client(settings)
      try {
        await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: key }))
        return true
      } catch (err) {
        if ((err as { name?: string }).name === 'NotFound') return false
        throw err
      } finally {
        client.destroy()
      }
    },
    async start() {
      if (running) return
      server = serverOn(port)
      await server.run()
      running = true
    },
    async close() {
      await stop()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
