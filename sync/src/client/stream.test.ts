import { describe, expect, test } from 'vitest'
import { startStream } from './stream.ts'
import { manualClock } from './test-kit.ts'
import { TransportError } from './transport.ts'

const sse = (text: string) =>
  new Response(new Blob([text]).stream(), { status: 200, headers: { 'content-type': 'text/event-stream' } })
const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

describe('the live stream client', () => {
  test('every event asks for a pull, and an ended stream is opened again', async () => {
    const clock = manualClock()
    const events: string[] = []
    let opens = 0
    const stream = startStream({
      open: async () => {
        opens += 1
        return sse('event: ready\ndata: {}\n\nevent: poke\ndata: {"buble_id":"b"}\n\n')
      },
      onEvent: (event) => events.push(event),
      timers: clock.timers,
      random: () => 0,
    })
    await settle()
    expect(events).toEqual(['ready', 'poke'])
    expect(opens).toBe(1)
    clock.advance(clock.waiting()[0]!)
    await settle()
    expect(opens).toBe(2)
    stream.stop()
  })

  test('offline it waits for the network before connecting', async () => {
    let online: () => void = () => {}
    let opens = 0
    const stream = startStream({
      open: async () => {
        opens += 1
        return sse('event: ready\ndata: {}\n\n')
      },
      onEvent: () => {},
      whenOnline: () => new Promise((resolve) => (online = resolve)),
      timers: manualClock().timers,
    })
    await settle()
    expect(opens).toBe(0)
    online()
    await settle()
    expect(opens).toBe(1)
    stream.stop()
  })

  test('a refused session stops it for good; a failed connection is retried with backoff', async () => {
    const clock = manualClock()
    let opens = 0
    const stopped = startStream({
      open: async () => {
        opens += 1
        throw new TransportError('auth', 'Invalid or expired token', 401)
      },
      onEvent: () => {},
      timers: clock.timers,
    })
    await settle()
    expect(opens).toBe(1)
    expect(clock.waiting()).toEqual([])
    stopped.stop()

    const retrying = startStream({
      open: async () => {
        throw new TransportError('network', 'Failed to fetch')
      },
      onEvent: () => {},
      timers: clock.timers,
      random: () => 1,
    })
    await settle()
    expect(clock.waiting()).toEqual([1000])
    retrying.stop()
    expect(clock.waiting()).toEqual([])
  })
})
