/**
 * Large JSON answers kept in memory as bytes (the events and polls lists): encoded once, and
 * gzipped once, the first time a client that accepts gzip asks. Every browser does, and a list
 * of thousands of rows is a megabyte as text but a tenth of that compressed.
 */

import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { Context } from 'hono'

const gzipAsync = promisify(gzip)
const encoder = new TextEncoder()
/** Below this, compressing costs more than it saves. */
const GZIP_FROM_BYTES = 1024

export interface JsonAnswer {
  body: Uint8Array<ArrayBuffer>
  /** Made on first use, in the thread pool; kept with the answer. */
  gzipped?: Promise<Uint8Array<ArrayBuffer>>
}

export const jsonAnswer = (json: string): JsonAnswer => ({ body: encoder.encode(json) as Uint8Array<ArrayBuffer> })

/** What an answer weighs in memory, roughly (the gzipped copy is a fraction of the text). */
export const answerBytes = (answer: JsonAnswer) => Math.ceil(answer.body.byteLength * 1.25)

const acceptsGzip = (c: Context) => /\bgzip\b/i.test(c.req.header('accept-encoding') ?? '')

/** Sends a kept answer, gzipped when the client accepts it. */
export async function sendJsonAnswer(c: Context, answer: JsonAnswer): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', vary: 'Accept-Encoding' }
  if (answer.body.byteLength < GZIP_FROM_BYTES || !acceptsGzip(c)) return c.body(answer.body, 200, headers)
  answer.gzipped ??= gzipAsync(answer.body) as Promise<Uint8Array<ArrayBuffer>>
  return c.body(await answer.gzipped, 200, { ...headers, 'content-encoding': 'gzip' })
}
