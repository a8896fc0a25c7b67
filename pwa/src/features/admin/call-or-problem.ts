import type { ZodType } from 'zod'
import { messageOf } from '../../session/api-client.ts'
import { FormProblem } from '../../ui/form-modal.tsx'

/** Runs an admin write from a form; a failure becomes the server's message, else `failure`, shown in the form. */
export async function callOrProblem<T>(call: () => Promise<T>, failure: string): Promise<T> {
  try {
    return await call()
  } catch (err) {
    console.warn(failure, err)
    throw new FormProblem(messageOf(err, failure))
  }
}

/** The first problem the shared schema finds in one field's value, or null. */
export function problemOf(schema: ZodType, value: unknown): string | null {
  const result = schema.safeParse(value)
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid value')
}
