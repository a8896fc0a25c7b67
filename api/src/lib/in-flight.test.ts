import { describe, expect, test } from 'vitest'
import { trackInFlight } from './in-flight.ts'

/** Shutdown waits for running handlers (server.ts): the count, and the wait with its time limit. */
describe('requests in flight', () => {
  const gate = () => {
    let open!: (value: string) => void
    const opened = new Promise<string>((resolve) => {
      open = resolve
    })
    return { open, opened }
  }

  test('drained waits for every running handler, answers at once when none runs', async () => {
    const first = gate()
    const second = gate()
    const tracked = trackInFlight((which: number) => (which === 1 ? first.opened : second.opened))
    expect(await tracked.drained(10)).toBe(true)
    const answers = [tracked.handler(1), tracked.handler(2)]
    expect(tracked.count).toBe(2)
    let drained: boolean | undefined
    const waiting = tracked.drained(5_000).then((result) => {
      drained = result
    })
    first.open('one')
    await answers[0]
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(drained).toBeUndefined()
    second.open('two')
    expect(await Promise.all(answers)).toEqual(['one', 'two'])
    await waiting
    expect(drained).toBe(true)
    expect(tracked.count).toBe(0)
  })

  test('a failing handler counts out too; a handler that never ends makes drained answer false at its limit', async () => {
    const tracked = trackInFlight(async (fail: boolean) => {
      if (fail) throw new Error('boom')
      return new Promise<never>(() => {})
    })
    await expect(tracked.handler(true)).rejects.toThrow('boom')
    expect(tracked.count).toBe(0)
    void tracked.handler(false)
    expect(tracked.count).toBe(1)
    expect(await tracked.drained(30)).toBe(false)
  })
})
