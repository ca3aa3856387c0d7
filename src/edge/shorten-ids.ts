// Order uuids are bearer capabilities: logs keep only their first 8 hex digits, enough to correlate.
const UUID = /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** Text without a hyphen holds no uuid (most request lines): the scan is skipped for it. */
export const shortenIds = (text: string): string => (text.includes('-') ? text.replace(UUID, '$1…') : text)
