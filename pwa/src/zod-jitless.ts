/**
 * Zod 4 probes `new Function('')` to decide whether to compile its parsers; the server's CSP
 * (`script-src 'self'`, CONTRACT §7) refuses it and the browser reports a violation on every page.
 * Jitless parsing is what runs anyway under that CSP. Imported first in main.tsx: the probe runs when
 * the first schema is built, and modules imported before this one would build theirs.
 */
import { config } from 'zod'

config({ jitless: true })
