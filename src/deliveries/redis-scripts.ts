// The Redis store's steps, each one Lua script so it is atomic. Keys, under the channel's prefix:
// `records` (hash id → record), `due` (sorted set: queue heads by due time or lease end), `pending`
// (sorted set by enqueue time), `failed` (sorted set by failure time), `q:<queue>` (list: one
// (target, order)'s ids in enqueue order), `seen:<id>` (enqueued before, kept RETENTION_MS).

/** ARGV: prefix, id, record, queue, dueAt, enqueuedAt, retentionMs → 1 added, 0 seen before. */
export const ENQUEUE = `
local p = ARGV[1]
if not redis.call('SET', p..'seen:'..ARGV[2], '1', 'NX', 'PX', ARGV[7]) then return 0 end
redis.call('HSET', p..'records', ARGV[2], ARGV[3])
redis.call('ZADD', p..'pending', ARGV[6], ARGV[2])
local q = p..'q:'..ARGV[4]
if redis.call('RPUSH', q, ARGV[2]) == 1 then redis.call('ZADD', p..'due', ARGV[5], ARGV[2]) end
return 1`

/** ARGV: prefix, now, leaseUntil, limit, failedBefore → the claimed records. */
export const CLAIM = `
local p = ARGV[1]
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p..'failed', '-inf', ARGV[5])) do
  redis.call('HDEL', p..'records', id)
  redis.call('ZREM', p..'failed', id)
end
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p..'due', '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])) do
  local record = redis.call('HGET', p..'records', id)
  if record then
    redis.call('ZADD', p..'due', ARGV[3], id)
    out[#out + 1] = record
  else
    redis.call('ZREM', p..'due', id)
  end
end
return out`

/** ARGV: prefix, id, attempts claimed, kind (retry|failed|done), record, dueAt, now, queue → 1 applied. */
export const SETTLE = `
local p = ARGV[1]
local id = ARGV[2]
local stored = redis.call('HGET', p..'records', id)
if not stored then return 0 end
local current = cjson.decode(stored)
if current.state ~= 'pending' or current.attempts ~= tonumber(ARGV[3]) then return 0 end
if ARGV[4] == 'retry' then
  redis.call('HSET', p..'records', id, ARGV[5])
  redis.call('ZADD', p..'due', ARGV[6], id)
  return 1
end
redis.call('ZREM', p..'due', id)
redis.call('ZREM', p..'pending', id)
if ARGV[4] == 'failed' then
  redis.call('HSET', p..'records', id, ARGV[5])
  redis.call('ZADD', p..'failed', ARGV[7], id)
else
  redis.call('HDEL', p..'records', id)
end
local q = p..'q:'..ARGV[8]
redis.call('LREM', q, 1, id)
local head = redis.call('LINDEX', q, 0)
if head and not redis.call('ZSCORE', p..'due', head) then redis.call('ZADD', p..'due', ARGV[7], head) end
return 1`

/** ARGV: prefix, id, now → 1 when a failed delivery was made pending again. */
export const REQUEUE = `
local p = ARGV[1]
local id = ARGV[2]
if not redis.call('ZSCORE', p..'failed', id) then return 0 end
local record = cjson.decode(redis.call('HGET', p..'records', id))
record.state = 'pending'
record.round = 0
record.dueAt = tonumber(ARGV[3])
redis.call('ZREM', p..'failed', id)
redis.call('HSET', p..'records', id, cjson.encode(record))
redis.call('ZADD', p..'pending', record.enqueuedAt, id)
redis.call('ZADD', p..'due', ARGV[3], id)
return 1`
