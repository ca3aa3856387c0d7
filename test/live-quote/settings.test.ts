// The live quote's settings: their defaults, and the one combination refused at start-up.
import t from 'tap'
import { loadConfig } from '../../src/config.js'

t.test('the live quote settings default to 5 s, 30 s and 10 minutes', async (t) => {
  t.match(loadConfig({}).quotes, { refreshMs: 5_000, maxSilenceMs: 30_000, maxMs: 600_000 })
})

t.test('a longest silence shorter than the refresh interval is refused, naming the variable', async (t) => {
  t.throws(() => loadConfig({ QUOTE_REFRESH_MS: '10000', QUOTE_STREAM_MAX_SILENCE_MS: '5000' }), {
    message: /QUOTE_STREAM_MAX_SILENCE_MS: must not be below QUOTE_REFRESH_MS/,
  })
  t.throws(() => loadConfig({ QUOTE_REFRESH_MS: '0' }), { message: /QUOTE_REFRESH_MS/ })
})
