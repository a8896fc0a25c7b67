/** A small structured logger: one JSON line per entry on stderr, filtered by LOG_LEVEL. */

import type { LogLevel } from '../config.ts'

const ORDER = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

function serialise(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value
  }
  return out
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const at =
    (name: Exclude<LogLevel, 'silent'>) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (ORDER[name] < ORDER[level]) return
      write(JSON.stringify({ time: new Date().toISOString(), level: name, msg, ...serialise(fields) }))
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
