import { render } from '@testing-library/react'
import { expect, test } from 'vitest'
import { HighlightedText } from './highlighted-text.tsx'

test('marks the words at their offsets and keeps markup in content as text', () => {
  const text = '<script>alert(1)</script> lake <b>lake</b>'
  const { container } = render(
    <p>
      <HighlightedText
        snippet={{
          text,
          marks: [
            [26, 30],
            [34, 38],
          ],
        }}
      />
    </p>,
  )
  expect(container.querySelector('script')).toBeNull()
  expect(container.querySelector('b')).toBeNull()
  expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['lake', 'lake'])
  expect(container.textContent).toBe(text)
})

test('a mark out of the text or overlapping the one before is ignored', () => {
  const { container } = render(
    <p>
      <HighlightedText
        snippet={{
          text: 'fika time',
          marks: [
            [0, 4],
            [2, 6],
            [5, 40],
          ],
        }}
      />
    </p>,
  )
  expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['fika'])
  expect(container.textContent).toBe('fika time')
})
