/**
 * Keeping the chat's view still: older messages load above what the user reads, so the distance
 * from the bottom is what stays; new messages follow the bottom only when the user was there.
 */

export interface ScrollBox {
  scrollHeight: number
  scrollTop: number
  clientHeight: number
}

/** How far above the bottom the view is, in pixels. */
export const distanceFromBottom = (box: Pick<ScrollBox, 'scrollHeight' | 'scrollTop'>) =>
  box.scrollHeight - box.scrollTop

/** The scrollTop that puts the view `fromBottom` above the bottom of content now `scrollHeight` high. */
export const scrollTopKeeping = (fromBottom: number, scrollHeight: number) => Math.max(0, scrollHeight - fromBottom)

/** Within `slack` pixels of the bottom: new messages keep the view at the bottom. */
export const isNearBottom = (box: ScrollBox, slack = 48) => box.scrollHeight - box.scrollTop - box.clientHeight <= slack

/** Near enough the top to fetch the older page before the user reaches it. */
export const isNearTop = (box: Pick<ScrollBox, 'scrollTop'>, slack = 64) => box.scrollTop <= slack
