/**
 * Large JSON answers kept in memory as bytes (the events and polls lists): encoded once, and
 * gzipped once, the first time a client that accepts gzip asks. Every browser does, and a list
 * of thousands of rows is a megabyte as text but a tenth of that compressed. Each kept answer has
 * an ETag: a client that has it already asks with If-None-Match and gets a bodiless 304.
 */

import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { Context } from 'hono'

const gzipAsync = promisify(gzip)
const encoder = new TextEncoder()
/** Below this, compressing costs more than it saves. */
const GZIP_FROM_BYTES = 1024

export interface JsonAnswer {
  body: Uint8Array<ArrayBuffer>
  /** A weak validator of the content: the same for its plain and gzipped forms. */
  etag: string
  /** Made on first use, in the thread pool; kept with the answer. */
  gzipped?: Promise<Uint8Array<ArrayBuffer>>
}

export function jsonAnswer(json: string): JsonAnswer {
  const body = encoder.encode(json) as Uint8Array<ArrayBuffer>
  return { body, etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
}

/** What an answer weighs in memory, roughly (the gzipped copy is a fraction of the text). */
export const answerBytes = (answer: JsonAnswer) => Math.ceil(answer.body.byteLength * 1.25)

const acceptsGzip = (c: Context) => /\bgzip\b/i.test(c.req.header('accept-encoding') ?? '')

/** Whether If-None-Match names this answer (weak comparison, RFC 9110 §13.1.2). */
function matches(c: Context, etag: string): boolean {
  const header = c.req.header('if-none-match')
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque)
}

/** Sends a kept answer: 304 when the client has it, else gzipped when the client accepts it. */
export async function sendJsonAnswer(c: Context, answer: JsonAnswer): Promise<Response> {
  // Private: a member's copy, never a shared cache's; no-cache: asked again each time, cheaply.
  const headers: Record<string, string> = {
    etag: answer.etag,
    'cache-control': 'private, no-cache',
    vary: 'Accept-Encoding, Authorization',
  }
  if (matches(c, answer.etag)) return c.body(null, 304, headers)
  headers['content-type'] = 'application/json'
  if (answer.body.byteLength < GZIP_FROM_BYTES || !acceptsGzip(c)) return c.body(answer.body, 200, headers)
  answer.gzipped ??= gzipAsync(answer.body) as Promise<Uint8Array<ArrayBuffer>>
  return c.body(await answer.gzipped, 200, { ...headers, 'content-encoding': 'gzip' })
}
