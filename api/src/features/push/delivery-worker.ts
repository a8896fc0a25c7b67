/** The push delivery worker (delivery.ts): encrypts and sends each push it is handed, and answers what came of it. */

import { parentPort, workerData } from 'node:worker_threads'
import { type DeliveryInput, deliverOnce, deliveryFetch } from './delivery.ts'

const port = parentPort
if (!port) throw new Error('delivery-worker.ts runs as a worker thread')
const safeFetch = deliveryFetch({ allowLoopback: (workerData as { allowLoopback: boolean }).allowLoopback })

port.on('message', ({ id, input }: { id: number; input: DeliveryInput }) => {
  deliverOnce(input, safeFetch)
    .catch((err: unknown) => ({ failed: 'refused' as const, message: String(err) }))
    .then((outcome) => port.postMessage({ id, outcome }))
})
