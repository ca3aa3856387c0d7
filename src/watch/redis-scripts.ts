// The watch's Redis scripts: each step that must not be split between instances runs as one script.
// Keys under the `watch` key space (prefix P): P..'orders' (sorted set: order → deadline),
// P..'order:<id>' (hash: last, origin), P..'lease:<id>' (the holder's id, expiring), P..'outbox'
// (hash: event id → event) with P..'outbox:at' (sorted set: event id → when written or last taken),
// and P..'instances' (sorted set: instance → last heartbeat). Every script takes the prefix as its
// first argument, so key names are built in one place (here).

/** ARGV: prefix, id, deadline, me, leaseMs, origin → {held, last, deadline, origin}. */
export const BEGIN = `
local p, id = ARGV[1], ARGV[2]
local order = p .. 'order:' .. id
redis.call('ZADD', p .. 'orders', 'NX', ARGV[3], id)
redis.call('HSETNX', order, 'origin', ARGV[6])
redis.call('SET', p .. 'lease:' .. id, ARGV[4], 'NX', 'PX', ARGV[5])
local held = redis.call('GET', p .. 'lease:' .. id) == ARGV[4] and 1 or 0
return {held, redis.call('HGET', order, 'last') or '', redis.call('ZSCORE', p .. 'orders', id),
  redis.call('HGET', order, 'origin')}
`

/**
 * ARGV: prefix, me, leaseMs, max, now → flat {id, last, deadline, origin}... Ends the watches past
 * their deadline that nobody holds, then leases up to max of the others that nobody holds.
 */
export const CLAIM = `
local p, me, lease, max, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'orders', '-inf', now)) do
  if redis.call('EXISTS', p .. 'lease:' .. id) == 0 then
    redis.call('ZREM', p .. 'orders', id)
    redis.call('DEL', p .. 'order:' .. id)
  end
end
local out, taken = {}, 0
local watched = redis.call('ZRANGEBYSCORE', p .. 'orders', '(' .. now, '+inf', 'WITHSCORES')
for i = 1, #watched, 2 do
  if taken >= max then break end
  local id = watched[i]
  if redis.call('SET', p .. 'lease:' .. id, me, 'NX', 'PX', lease) then
    taken = taken + 1
    local order = p .. 'order:' .. id
    table.insert(out, id)
    table.insert(out, redis.call('HGET', order, 'last') or '')
    table.insert(out, watched[i + 1])
    table.insert(out, redis.call('HGET', order, 'origin') or 'followed')
  end
end
return out
`

/** ARGV: prefix, me, leaseMs, ids... → the ids still leased to me, their leases extended. */
export const RENEW = `
local p, me, lease = ARGV[1], ARGV[2], ARGV[3]
local out = {}
for i = 4, #ARGV do
  local key = p .. 'lease:' .. ARGV[i]
  if redis.call('GET', key) == me then
    redis.call('PEXPIRE', key, lease)
    table.insert(out, ARGV[i])
  end
end
return out
`

/** ARGV: prefix, me, ids... */
export const RELEASE = `
local p, me = ARGV[1], ARGV[2]
for i = 3, #ARGV do
  local key = p .. 'lease:' .. ARGV[i]
  if redis.call('GET', key) == me then redis.call('DEL', key) end
end
return 0
`

/** ARGV: prefix, id. */
export const END = `
local p, id = ARGV[1], ARGV[2]
redis.call('ZREM', p .. 'orders', id)
redis.call('DEL', p .. 'order:' .. id, p .. 'lease:' .. id)
return 0
`

/** ARGV: prefix, id, expected ('' for none), status, event id, event json, now → {won, last}. */
export const REPORT = `
local p, id = ARGV[1], ARGV[2]
local order = p .. 'order:' .. id
local last = redis.call('HGET', order, 'last') or ''
if last ~= ARGV[3] then return {0, last} end
redis.call('HSET', order, 'last', ARGV[4])
redis.call('HSET', p .. 'outbox', ARGV[5], ARGV[6])
redis.call('ZADD', p .. 'outbox:at', ARGV[7], ARGV[5])
return {1, ARGV[4]}
`

/** ARGV: prefix, id, status → the last reported status (status, when there was none). */
export const BASELINE = `
local order = ARGV[1] .. 'order:' .. ARGV[2]
redis.call('HSETNX', order, 'last', ARGV[3])
return redis.call('HGET', order, 'last')
`

/** ARGV: prefix, event id. */
export const DELIVERED = `
redis.call('HDEL', ARGV[1] .. 'outbox', ARGV[2])
redis.call('ZREM', ARGV[1] .. 'outbox:at', ARGV[2])
return 0
`

/** ARGV: prefix, olderThan, now, max → events json; each taken is stamped now, so one instance takes it. */
export const STALE = `
local p = ARGV[1]
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'outbox:at', '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])) do
  local event = redis.call('HGET', p .. 'outbox', id)
  if event then
    redis.call('ZADD', p .. 'outbox:at', ARGV[3], id)
    table.insert(out, event)
  else
    redis.call('ZREM', p .. 'outbox:at', id)
  end
end
return out
`

/** ARGV: prefix, me, now, liveSince → {live instances, watched orders}. */
export const CENSUS = `
local p = ARGV[1]
redis.call('ZADD', p .. 'instances', ARGV[3], ARGV[2])
redis.call('ZREMRANGEBYSCORE', p .. 'instances', '-inf', '(' .. ARGV[4])
return {redis.call('ZCARD', p .. 'instances'), redis.call('ZCARD', p .. 'orders')}
`

/** ARGV: prefix, me. */
export const LEAVE = `
redis.call('ZREM', ARGV[1] .. 'instances', ARGV[2])
return 0
`
