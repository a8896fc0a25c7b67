import { useState } from 'react'
import { useFlash } from './use-flash.ts'

export const COPY_FAILED = 'Could not copy. Select the text and copy it yourself.'

/** Copies text to the clipboard; `copied` holds for a few seconds, `failed` until the next try. */
export function useCopy() {
  const [flash, showFlash] = useFlash()
  const [failed, setFailed] = useState(false)

  async function copy(text: string) {
    setFailed(false)
    try {
      // Missing over plain http and in some embedded browsers: the text stays selectable instead.
      await navigator.clipboard.writeText(text)
      showFlash('copied')
    } catch {
      showFlash(null)
      setFailed(true)
    }
  }

  return { copied: flash === 'copied', failed, copy }
}
