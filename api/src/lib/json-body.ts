/**
 * The JSON body limit of `/api/*`, and JSON bodies read straight from Node's request.
 *
 * `@hono/node-server` hands Hono a light request and builds a WHATWG Request (headers, an
 * AbortController, a web stream over Node's stream) only when something asks for its body. Reading a
 * JSON body that way cost a busy process about a fifth of its time. Where Node's request is at hand
 * (the real server), a JSON body is read here with `raw-body` (the limit counted as it arrives, a
 * Content-Length over it refused before reading) and put in Hono's body cache, so `c.req.json()` and
 * the validators parse it without the Request; the bytes are also left where the adapter looks
 * (`rawBody`), should anything still ask for the body. The text is decoded as `Request.text()` does
 * (UTF-8, a BOM dropped, bad bytes replaced), so the answers are the same either way.
 *
 * A GET, HEAD or OPTIONS is passed on without a look at its body: no route reads one, and Hono's
 * `bodyLimit` asking for it built the whole WHATWG Request for every read (decision 49's second half).
 * Any other request (another content type, no Node request as in `app.request()`) keeps Hono's
 * `bodyLimit` with the same limit and the same 413; decision 51.
 */

import type { IncomingMessage } from 'node:http'
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import getRawBody from 'raw-body'
import { AppError } from './errors.ts'

/** The content types Hono's JSON validator reads. */
const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large')

/** What a body read can fail with (raw-body's errors carry `type` and `status`). */
function readFailure(err: unknown): AppError {
  const { type } = (err ?? {}) as { type?: string }
  if (type === 'entity.too.large') return tooLarge()
  if (type === 'request.aborted') return new AppError('VALIDATION_ERROR', 'The request body was cut short')
  if (type === 'request.size.invalid')
    return new AppError('VALIDATION_ERROR', 'The request body does not match its length')
  return new AppError('VALIDATION_ERROR', 'The request body could not be read')
}

const decoder = new TextDecoder()

/** Methods whose bodies no route reads: nothing to limit, nothing to parse. */
const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Limits every body of `/api/*` to `maxBytes` and reads JSON bodies from Node's request. */
export function jsonBodies(maxBytes: number): MiddlewareHandler {
  const limited = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge()
    },
  })
  const read: MiddlewareHandler = async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
    const type = incoming?.headers['content-type']
    if (!incoming || !type || !JSON_TYPE.test(type)) return limited(c, next)
    const declared = incoming.headers['content-length']
    let bytes: Buffer
    try {
      bytes = await getRawBody(incoming, { limit: maxBytes, length: declared === undefined ? null : declared })
    } catch (err) {
      throw readFailure(err)
    }
    ;(incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = bytes
    // Hono keeps promises in its body cache (its type says the values).
    ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(decoder.decode(bytes))
    return next()
  }
  // `c.req.method` is the adapter's light request answering from Node's: nothing is built to ask it.
  return (c, next) => (BODILESS.has(c.req.method) ? next() : read(c, next))
}
