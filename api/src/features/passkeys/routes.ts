import { AuthResponse, MessageResponse } from '@buble/shared/auth'
import {
  AddPasskeyBody,
  PASSKEY_MESSAGES,
  Passkey,
  PasskeyLoginBody,
  PasskeyOptions,
  PasskeysResponse,
  RemovePasswordBody,
  RenamePasskeyBody,
} from '@buble/shared/passkeys'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { clientIp } from '../../lib/client-ip.ts'
import { notFound } from '../../lib/errors.ts'
import { describe } from '../../lib/openapi.ts'
import { idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { PasskeysService } from './service.ts'

const tag = 'passkeys'
const passkeyId = (raw: string) => idFromPath(raw, () => notFound(PASSKEY_MESSAGES.notFound))

/** A signed-in member's passkeys, and giving up the password (mounted under /users). */
export function memberPasskeyRoutes(passkeys: PasskeysService) {
  return new Hono<AppEnv>()
    .get(
      '/passkeys',
      describe({ tag, summary: 'Your passkeys, and whether you have a password', response: PasskeysResponse }),
      async (c) => c.json(await passkeys.list(c.var.user)),
    )
    .post(
      '/passkeys/registration-options',
      describe({ tag, summary: 'Options to create a passkey in the browser', response: PasskeyOptions }),
      async (c) => c.json(await passkeys.registrationOptions(c.var.user, c.req.header('origin'))),
    )
    .post(
      '/passkeys',
      describe({
        tag,
        summary: 'Add a passkey: the browser’s answer to the registration options',
        status: 201,
        response: Passkey,
      }),
      validate('json', AddPasskeyBody),
      async (c) => c.json(await passkeys.add(c.var.user, c.req.valid('json')), 201),
    )
    .patch(
      '/passkeys/:id',
      describe({ tag, summary: 'Rename a passkey', response: Passkey }),
      validate('json', RenamePasskeyBody),
      async (c) => c.json(await passkeys.rename(c.var.user, passkeyId(c.req.param('id')), c.req.valid('json').name)),
    )
    .delete(
      '/passkeys/:id',
      describe({ tag, summary: 'Remove a passkey, unless it is your last way to sign in', response: MessageResponse }),
      async (c) => c.json(await passkeys.remove(c.var.user, passkeyId(c.req.param('id')))),
    )
    .post(
      '/remove-password',
      describe({ tag, summary: 'Remove your password once you hold a passkey', response: MessageResponse }),
      validate('json', RemovePasswordBody),
      async (c) => c.json(await passkeys.removePassword(c.var.user, c.req.valid('json'))),
    )
}

/** Signing in with a passkey (mounted under /auth; public). */
export function passkeySignInRoutes(passkeys: PasskeysService, trustProxy: boolean) {
  return new Hono<AppEnv>()
    .post(
      '/passkeys/options',
      describe({ tag, summary: 'Options to sign in with a passkey', response: PasskeyOptions, auth: false }),
      async (c) => c.json(await passkeys.authenticationOptions(clientIp(c, trustProxy), c.req.header('origin'))),
    )
    .post(
      '/passkeys/login',
      describe({
        tag,
        summary: 'Sign in with a passkey (the same answer as a password sign-in)',
        response: AuthResponse,
        auth: false,
      }),
      validate('json', PasskeyLoginBody),
      async (c) => c.json(await passkeys.login(c.req.valid('json'), clientIp(c, trustProxy), c.req.raw.headers)),
    )
}
