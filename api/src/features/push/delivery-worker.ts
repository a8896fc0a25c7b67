/** The push delivery worker (delivery.ts): encrypts and sends each push it is handed, and answers what came of it. */

import { parentPort, workerData } from 'node:worker_threads'
import { deliverOnce, deliveryFetch, type WorkerAnswer, type WorkerJob } from './delivery.ts'

const port = parentPort
if (!port) throw new Error('delivery-worker.ts runs as a worker thread')
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
