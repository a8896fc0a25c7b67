/** Password rules of spec part 1 §5 and CONTRACT §6, in the order the first failure is reported. */

export const PASSWORD_MESSAGES = {
  min6: 'Password must be at least 6 characters',
  min12: 'Password must be at least 12 characters long',
  max31: 'Password must be less than 32 characters long',
  upper: 'Password must contain at least one uppercase letter',
  lower: 'Password must contain at least one lowercase letter',
  digit: 'Password must contain at least one number',
  mismatch: 'Passwords do not match',
} as const

type Rule = readonly [test: (pw: string) => boolean, message: string]

const BASIC_RULES: readonly Rule[] = [[(pw) => pw.length >= 6, PASSWORD_MESSAGES.min6]]

const STRONG_RULES: readonly Rule[] = [
  ...BASIC_RULES,
  [(pw) => pw.length >= 12, PASSWORD_MESSAGES.min12],
  [(pw) => pw.length < 32, PASSWORD_MESSAGES.max31],
  [(pw) => /[A-Z]/.test(pw), PASSWORD_MESSAGES.upper],
  [(pw) => /[a-z]/.test(pw), PASSWORD_MESSAGES.lower],
  [(pw) => /[0-9]/.test(pw), PASSWORD_MESSAGES.digit],
]

const firstFailure = (rules: readonly Rule[], pw: string): string | null =>
  rules.find(([test]) => !test(pw))?.[1] ?? null

/** The first strong-rule message a self-chosen password fails, or null when it passes. */
export const strongPasswordProblem = (pw: string): string | null => firstFailure(STRONG_RULES, pw)

/** The message an admin-set password fails (only the 6-character minimum), or null. */
export const adminPasswordProblem = (pw: string): string | null => firstFailure(BASIC_RULES, pw)

/**
 * The problem with a new password and its confirmation, as the reset, change and
 * complete-registration forms show it: the mismatch first, then the strong rules.
 */
export function newPasswordProblem(pw: string, confirm: string): string | null {
  // The spec compares both exactly and case-insensitively; an exact comparison covers both.
  if (pw !== confirm || pw.toLowerCase() !== confirm.toLowerCase()) return PASSWORD_MESSAGES.mismatch
  return strongPasswordProblem(pw)
}
