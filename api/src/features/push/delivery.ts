/**
 * One push's request, built and sent (RFC 8291 encryption, the VAPID header, the guarded fetch of
 * CONTRACT §7), and what came of it. Encrypting costs a P-256 key pair and an ECDH per push: a burst
 * of them would take the API's thread from the requests, so pushes go out from a worker thread
 * (delivery-worker.ts) and the API only hands them over. Where a worker cannot be had (a resolver
 * given in code, as tests do, cannot cross into one; a worker that died), they go out from here.
 */

import { Worker } from 'node:worker_threads'
import webpush from 'web-push'
import type { Logger } from '../../lib/log.ts'
import { createSafeFetch, type Resolver, type SafeFetch, SafeFetchError } from '../../lib/safe-fetch.ts'

/** How long a push service keeps an undelivered push: a day (a stale counter is of no use later). */
const TTL_SECONDS = 24 * 60 * 60

export interface DeliveryInput {
  endpoint: string
  p256dh: string
  auth: string
  payload: string
  /** The VAPID `Authorization` of the endpoint's push service. */
  authorization: string
}

/** The push service's answer, or no answer: worth trying again later ('retry'), or never ('refused'). */
export type DeliveryOutcome =
  | { status: number; retryAfter: string | null }
  | { failed: 'retry' | 'refused'; message: string }

export interface DeliveryOptions {
  allowLoopback: boolean
  lookup?: Resolver | undefined
}

export const deliveryFetch = ({ allowLoopback, lookup }: DeliveryOptions): SafeFetch =>
  createSafeFetch({ allowLoopback, lookup, maxBytes: 64 * 1024, maxRedirects: 0 })

/** Encrypts afresh (a new key and salt per push, each try too) and sends. */
export async function deliverOnce(input: DeliveryInput, safeFetch: SafeFetch): Promise<DeliveryOutcome> {
  // No vapidDetails (nor setVapidDetails anywhere): web-push adds no JWT of its own.
  const details = webpush.generateRequestDetails({ endpoint: input.endpoint, keys: input }, input.payload, {
    headers: { Authorization: input.authorization },
    TTL: TTL_SECONDS,
    urgency: 'normal',
    contentEncoding: 'aes128gcm',
  })
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(details.headers)) {
    if (name.toLowerCase() !== 'content-length') headers[name.toLowerCase()] = String(value)
  }
  try {
    const response = await safeFetch(details.endpoint, { method: 'POST', headers, body: details.body ?? undefined })
    return { status: response.status, retryAfter: response.headers.get('retry-after') }
  } catch (err) {
    if (err instanceof SafeFetchError && (err.reason === 'network' || err.reason === 'timeout'))
      return { failed: 'retry', message: err.message }
    return { failed: 'refused', message: String(err) }
  }
}

/**
 * The worker's first module: it loads delivery-worker.ts through tsx's API, as the rest of the API
 * runs (Node 20 does not carry `--import tsx` into a worker's own modules).
 */
const workerBoot = (): URL =>
  new URL(
    `data:text/javascript,${encodeURIComponent(`import { tsImport } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
await tsImport(${JSON.stringify(new URL('./delivery-worker.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)});`)}`,
  )

/** What the API thread and the delivery worker pass, each way in arrays: a turn's pushes, or their outcomes. */
export interface WorkerJob {
  id: number
  input: DeliveryInput
}
export interface WorkerAnswer {
  id: number
  outcome: DeliveryOutcome
}

export interface Deliverer {
  deliver(input: DeliveryInput): Promise<DeliveryOutcome>
  close(): Promise<void>
}

/** Pushes sent from a worker thread, started at the first push; in this thread when it cannot be. */
export function createDeliverer(options: DeliveryOptions, log: Logger): Deliverer {
  let here: SafeFetch | undefined
  const inThisThread = (input: DeliveryInput) => {
    here ??= deliveryFetch(options)
    return deliverOnce(input, here)
  }
  if (options.lookup) return { deliver: inThisThread, close: async () => {} }

  let worker: Worker | undefined
  let broken = false
  let next = 0
  /** This turn's pushes, handed to the worker in one message (a message each cost the API thread a clone and a wake-up). */
  let handOver: WorkerJob[] = []
  const flush = () => {
    const jobs = handOver
    handOver = []
    if (worker) worker.postMessage(jobs)
    else
      for (const { id } of jobs) {
        pending.get(id)?.({ failed: 'retry', message: 'the delivery worker stopped' })
        pending.delete(id)
      }
  }
  const pending = new Map<number, (outcome: DeliveryOutcome) => void>()
  const settleAll = (outcome: DeliveryOutcome) => {
    for (const settle of pending.values()) settle(outcome)
    pending.clear()
  }

  function start(): Worker {
    const started = new Worker(workerBoot(), { workerData: { allowLoopback: options.allowLoopback } })
    started.unref()
    started.on('message', (answers: WorkerAnswer[]) => {
      for (const { id, outcome } of answers) {
        pending.get(id)?.(outcome)
        pending.delete(id)
      }
    })
    started.on('error', (err) => {
      log.error('the push delivery worker failed; pushes go out from the API thread', { err })
      broken = true
      worker = undefined
      settleAll({ failed: 'retry', message: 'the delivery worker stopped' })
    })
    started.on('exit', () => {
      if (worker === started) worker = undefined
      settleAll({ failed: 'retry', message: 'the delivery worker stopped' })
    })
    return started
  }

  return {
    deliver(input) {
      if (broken) return inThisThread(input)
      try {
        worker ??= start()
      } catch (err) {
        log.error('the push delivery worker could not start; pushes go out from the API thread', { err })
        broken = true
        return inThisThread(input)
      }
      const id = next++
      const sent = new Promise<DeliveryOutcome>((resolve) => pending.set(id, resolve))
      handOver.push({ id, input })
      if (handOver.length === 1) setImmediate(flush)
      return sent
    },
    async close() {
      const stopping = worker
      worker = undefined
      broken = true
      if (stopping) await stopping.terminate()
    },
  }
}
