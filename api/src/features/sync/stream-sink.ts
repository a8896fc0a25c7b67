/**
 * Where a live stream's bytes go: written at once, in the caller's turn, with no promise per write.
 * A poke fanned out to thousands of streams is then one loop of writes (stream-hub.ts).
 *
 * Under @hono/node-server the bytes go straight to Node's response (`c.env.outgoing`): the answer's
 * head still comes from Hono (every middleware's headers), and its body stays open until the stream
 * ends, but the events never pass through a web stream, which would cost each stream a read, a
 * promise and a turn of the event loop per poke. Elsewhere (tests through `app.request`), the
 * events are enqueued on the answer's ReadableStream, which is synchronous too.
 *
 * A client that does not read keeps at most one socket buffer of our bytes: once a write finds the
 * buffer full, pokes are dropped until it drains, and then the stream gets one `resync` (pull once:
 * pokes were missed) instead of the backlog. Pokes say "pull"; one says as much as a hundred.
 */

import { ServerResponse } from 'node:http'
import type { Context } from 'hono'

export const encodeEvent = (event: string, data: unknown): Uint8Array =>
  Buffer.from(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)

const RESYNC = encodeEvent('resync', {})
const KEEPALIVE = Buffer.from(': keepalive\n\n')
/** What a web stream holds for a client that is not reading (a socket's buffer holds 16 KiB too). */
const WEB_HIGH_WATER_BYTES = 16 * 1024

export interface EventSink {
  /** The answer's body, for `c.body(sink.body, 200, SSE_HEADERS)`: it ends with the stream. */
  readonly body: ReadableStream<Uint8Array>
  /** Resolves true once the head is on its way and events may be written; false if the client left first. */
  readonly opened: Promise<boolean>
  readonly closed: boolean
  /** Writes an event's bytes now; while the client is behind, drops them and owes it a `resync`. */
  write(bytes: Uint8Array): void
  /** A comment that keeps proxies from closing an idle connection (skipped while behind). */
  keepalive(): void
  /** Ends the answer (the server's choice: the token went bad). */
  end(): void
  /** Runs once when the stream is over, whoever ended it. */
  onClose(listener: () => void): void
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  // Chunked from the start: @hono/node-server then writes the head at once and asks for the body,
  // instead of waiting for its first bytes (which come only after the stream's own checks).
  'transfer-encoding': 'chunked',
}

/** The bookkeeping both kinds share: closing once, and the drop-and-resync of a client that is behind. */
abstract class Sink implements EventSink {
  abstract readonly body: ReadableStream<Uint8Array>
  abstract readonly opened: Promise<boolean>
  closed = false
  private behind = false
  private missed = false
  private listeners: (() => void)[] = []

  /** Writes and answers whether there is room for more. */
  protected abstract put(bytes: Uint8Array): boolean
  protected abstract finish(): void

  write(bytes: Uint8Array): void {
    if (this.closed) return
    if (this.behind) {
      this.missed = true
      return
    }
    if (!this.put(bytes)) this.behind = true
  }

  keepalive(): void {
    if (!this.closed && !this.behind && !this.put(KEEPALIVE)) this.behind = true
  }

  /** The client read what was waiting: it hears again, and pulls once for what it missed. */
  protected drained(): void {
    if (!this.behind) return
    this.behind = false
    if (this.missed) {
      this.missed = false
      this.write(RESYNC)
    }
  }

  end(): void {
    if (this.closed) return
    this.finish()
    this.close()
  }

  protected close(): void {
    if (this.closed) return
    this.closed = true
    for (const listener of this.listeners.splice(0)) listener()
  }

  onClose(listener: () => void): void {
    if (this.closed) listener()
    else this.listeners.push(listener)
  }
}

class NodeSink extends Sink {
  readonly body: ReadableStream<Uint8Array>
  readonly opened: Promise<boolean>
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined

  constructor(private readonly out: ServerResponse) {
    super()
    let open: (opened: boolean) => void = () => {}
    this.opened = new Promise((resolve) => {
      open = resolve
    })
    // The body never carries a byte: the adapter asks for its first chunk (`pull`) right after
    // writing the head, so from then on our writes follow the head; closing it ends the answer.
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller
        },
        pull: () => open(!this.closed && out.headersSent),
        cancel: () => this.close(),
      },
      { highWaterMark: 0 },
    )
    out.on('close', () => {
      open(false)
      this.close()
    })
    out.on('drain', () => this.drained())
  }

  protected put(bytes: Uint8Array): boolean {
    return this.out.write(bytes)
  }

  protected finish(): void {
    this.controller?.close()
  }
}

class WebSink extends Sink {
  readonly body: ReadableStream<Uint8Array>
  readonly opened = Promise.resolve(true)
  private controller!: ReadableStreamDefaultController<Uint8Array>

  constructor() {
    super()
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller
        },
        pull: () => this.drained(),
        cancel: () => this.close(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: WEB_HIGH_WATER_BYTES }),
    )
  }

  protected put(bytes: Uint8Array): boolean {
    this.controller.enqueue(bytes)
    return (this.controller.desiredSize ?? 0) > 0
  }

  protected finish(): void {
    this.controller.close()
  }
}

/** The sink for this request: Node's response when the adapter gives one, the answer's body otherwise. */
export function openSink(c: Context): EventSink {
  const out = (c.env as { outgoing?: unknown } | undefined)?.outgoing
  return out instanceof ServerResponse ? new NodeSink(out) : new WebSink()
}
