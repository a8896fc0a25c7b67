/** The push delivery worker (delivery.ts): encrypts and sends each push it is handed, and answers what came of it. */

import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { deliverOnce, deliveryFetch, type WorkerAnswer, type WorkerJob } from './delivery.ts'

const port = parentPort
if (!port) throw new Error('delivery-worker.ts runs as a worker thread')

/**
 * Pushes are background work: when the CPU is short, requests come first and pushes wait. Linux
 * keeps a nice value per thread, and `setpriority` given a thread's id sets that thread's alone
 * (`/proc/thread-self` names it). Elsewhere, or where it is refused, pushes keep the default.
 */
const DELIVERY_NICE = 10
try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, DELIVERY_NICE)
} catch {
  // Not Linux, or not allowed: the default priority.
}
const safeFetch = deliveryFetch({ allowLoopback: (workerData as { allowLoopback: boolean }).allowLoopback })

/** Outcomes of this turn, answered in one message. */
let answers: WorkerAnswer[] = []
const flush = () => {
  port.postMessage(answers)
  answers = []
}

port.on('message', (jobs: WorkerJob[]) => {
  for (const { id, input } of jobs)
    deliverOnce(input, safeFetch)
      .catch((err: unknown) => ({ failed: 'refused' as const, message: String(err) }))
      .then((outcome) => {
        answers.push({ id, outcome })
        if (answers.length === 1) setImmediate(flush)
      })
})
