import { act, render, screen } from '@testing-library/react'
import { useRef } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { useSeen } from './use-seen.ts'

function Probe() {
  const ref = useRef<HTMLDivElement>(null)
  return <div ref={ref}>{useSeen(ref) ? 'seen' : 'not yet'}</div>
}

/** A fake IntersectionObserver whose callbacks the test calls. */
function fakeObserver() {
  const observers: { callback: IntersectionObserverCallback; disconnected: boolean }[] = []
  class Fake {
    entry: { callback: IntersectionObserverCallback; disconnected: boolean }
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, disconnected: false }
      observers.push(this.entry)
    }
    observe() {}
    disconnect() {
      this.entry.disconnected = true
    }
  }
  vi.stubGlobal('IntersectionObserver', Fake)
  const fire = (isIntersecting: boolean) =>
    act(() => {
      for (const o of observers)
        if (!o.disconnected) o.callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver)
    })
  return { observers, fire }
}

afterEach(() => vi.unstubAllGlobals())

describe('useSeen', () => {
  test('false until the element comes near the viewport, then true for good; the observer is let go', () => {
    const { observers, fire } = fakeObserver()
    render(<Probe />)
    expect(screen.getByText('not yet')).toBeTruthy()
    fire(false)
    expect(screen.getByText('not yet')).toBeTruthy()
    fire(true)
    expect(screen.getByText('seen')).toBeTruthy()
    fire(false)
    expect(screen.getByText('seen')).toBeTruthy()
    expect(observers.every((o) => o.disconnected)).toBe(true)
  })

  test('without IntersectionObserver everything counts as seen at once', () => {
    vi.stubGlobal('IntersectionObserver', undefined)
    render(<Probe />)
    expect(screen.getByText('seen')).toBeTruthy()
  })
})
