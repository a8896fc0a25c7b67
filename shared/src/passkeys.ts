/** Passkeys (WebAuthn, decision 102): request and answer shapes, the sign-in-method rule and its texts. */

import { z } from 'zod'
import { hasControlCharacters, stripInvisible } from './text.ts'

/** The longest name a member may give a passkey. */
export const PASSKEY_NAME_MAX = 60

/** How long a WebAuthn challenge may be answered (the browser's own timeout is the same). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000

/** The exact texts of passkeys, on the server and in the PWA. */
export const PASSKEY_MESSAGES = {
  notRecognised: 'This passkey is not recognised. Use another passkey or your password.',
  expired: 'This passkey request has expired. Please try again.',
  notVerified: 'The passkey could not be verified. Please try again.',
  alreadyAdded: 'This passkey is already added to your account',
  notFound: 'Passkey not found',
  removed: 'Passkey removed',
  lastPasskey: 'This passkey is your only way to sign in. Add another passkey or set a password before removing it.',
  passwordIsLast: 'Add a passkey before removing your password: it is your only way to sign in.',
  noPassword: 'Your account has no password to remove',
  passwordRemoved: 'Password removed. You sign in with a passkey from now on.',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${PASSKEY_NAME_MAX} characters`,
  nameControl: 'Name must not contain control characters',
} as const

/** What a member may use to sign in: their password (if any) and how many passkeys they hold. */
export interface SignInMethods {
  hasPassword: boolean
  passkeys: number
}

/**
 * Whether removing one sign-in method (the password, or one passkey the member holds) leaves at
 * least one other: nobody can lock themselves out (a reset by e-mail would still let them back in,
 * but it must not be the only way).
 */
export function canRemoveSignInMethod(methods: SignInMethods, removing: 'password' | 'passkey'): boolean {
  if (removing === 'password') return methods.hasPassword && methods.passkeys >= 1
  return methods.passkeys >= 1 && (methods.hasPassword || methods.passkeys >= 2)
}

/** A passkey's name: invisible characters dropped, trimmed, 1–60 characters, no control characters. */
export const PasskeyName = z
  .string({ error: PASSKEY_MESSAGES.nameRequired })
  .overwrite(stripInvisible)
  .trim()
  .min(1, { error: PASSKEY_MESSAGES.nameRequired, abort: true })
  .max(PASSKEY_NAME_MAX, PASSKEY_MESSAGES.nameTooLong)
  .refine((name) => !hasControlCharacters(name), PASSKEY_MESSAGES.nameControl)

/** A passkey as the profile lists it; the credential's id and key never leave the server. */
export const Passkey = z.object({
  id: z.string(),
  name: z.string(),
  /** `multiDevice`: synced by the platform (a password manager, iCloud Keychain); `singleDevice`: bound to one authenticator. */
  device_type: z.enum(['singleDevice', 'multiDevice']),
  backed_up: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
})
export type Passkey = z.infer<typeof Passkey>

/** The member's passkeys, and whether the account has a password too (for the removal rule and the profile). */
export const PasskeysResponse = z.object({ passkeys: z.array(Passkey), has_password: z.boolean() })
export type PasskeysResponse = z.infer<typeof PasskeysResponse>

const Base64Url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url')
const Transport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])

/** What the browser's `navigator.credentials.create()` answers, as JSON (WebAuthn L3 `toJSON()`). */
export const RegistrationResponseJson = z.object({
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url,
    attestationObject: Base64Url,
    authenticatorData: Base64Url.optional(),
    transports: z.array(Transport).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: Base64Url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
})
export type RegistrationResponseJson = z.infer<typeof RegistrationResponseJson>

/** What the browser's `navigator.credentials.get()` answers, as JSON. */
export const AuthenticationResponseJson = z.object({
  id: Base64Url.min(1),
  rawId: Base64Url.min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: Base64Url,
    authenticatorData: Base64Url,
    signature: Base64Url,
    userHandle: Base64Url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
})
export type AuthenticationResponseJson = z.infer<typeof AuthenticationResponseJson>

/** The options handed to the browser's WebAuthn call (`PublicKeyCredentialCreationOptionsJSON` or `…RequestOptionsJSON`). */
export const PasskeyOptions = z.looseObject({ challenge: z.string() })
export type PasskeyOptions = z.infer<typeof PasskeyOptions>

export const AddPasskeyBody = z.object({ name: PasskeyName, response: RegistrationResponseJson })
export type AddPasskeyBody = z.infer<typeof AddPasskeyBody>

export const RenamePasskeyBody = z.object({ name: PasskeyName })
export type RenamePasskeyBody = z.infer<typeof RenamePasskeyBody>

export const PasskeyLoginBody = z.object({ response: AuthenticationResponseJson })
export type PasskeyLoginBody = z.infer<typeof PasskeyLoginBody>

export const RemovePasswordBody = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(1024),
})
export type RemovePasswordBody = z.infer<typeof RemovePasswordBody>
