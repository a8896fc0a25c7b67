/**
 * The floor's process (floor.ts): a bare `node:http` server on a free port of 127.0.0.1, sending
 * whatever answer run.ts last gave it over IPC. It says its port once listening, and `served`
 * once each new answer is in place.
 */

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type FloorAnswer, type FloorMessage, floorListener } from './floor.ts'

let answer: FloorAnswer = { status: 204, headers: [], body: new Uint8Array() }
const say = (message: FloorMessage) => process.send?.(message)

const server = createServer(floorListener(() => answer))
process.on('message', (message) => {
  answer = message as FloorAnswer
  say({ served: true })
})
process.on('disconnect', () => process.exit(0))
process.on('SIGTERM', () => process.exit(0))
server.listen(0, '127.0.0.1', () => say({ port: (server.address() as AddressInfo).port }))
