/**
 * Checking an invite code before the join confirmation (issue 21 §4): the public preview
 * (GET /api/bubles/invites/:code) says which buble and who invited, or that the code is dead.
 */

import { BUBLE_MESSAGES, InvitePreview } from '@buble/shared/bubles'
import type { ApiClient } from '../../session/api-client.ts'
import { ApiError, messageOf } from '../../session/api-client.ts'
import { JOIN_TEXTS } from './invite-texts.ts'

export type PreviewOutcome = { ok: true; preview: InvitePreview } | { ok: false; message: string; dead: boolean }

export const previewPath = (code: string) => `/bubles/invites/${encodeURIComponent(code)}`

/** What a failed check says: a dead code the spec's words, no answer at all that it needs a connection. */
export function previewFailure(err: unknown): { message: string; dead: boolean } {
  if (err instanceof ApiError && (err.status === 410 || err.status === 404))
    return { message: BUBLE_MESSAGES.inviteInvalid, dead: true }
  // fetch rejects with a TypeError when no answer came at all.
  if (err instanceof TypeError) return { message: JOIN_TEXTS.offline, dead: false }
  return { message: messageOf(err, JOIN_TEXTS.checkFailed), dead: false }
}

/** Asks the server about a (normalised) code; offline, nothing is asked. */
export async function checkInvite(api: ApiClient, code: string, signal?: AbortSignal): Promise<PreviewOutcome> {
  if (!navigator.onLine) return { ok: false, message: JOIN_TEXTS.offline, dead: false }
  try {
    return { ok: true, preview: InvitePreview.parse(await api.get(previewPath(code), signal)) }
  } catch (err) {
    return { ok: false, ...previewFailure(err) }
  }
}
