-- wrk script: a history page of 50 messages (GET …/messages with prev_limit=50) as member u1 in
-- the channel BENCH_CHANNEL (default h1m, the 10^6 message channel scripts/bench/messages seeds),
-- anchored at a random timestamp among its messages (created_at 1700000000000 + k, k up to
-- BENCH_MESSAGES). Requests are formatted up front.
local token = os.getenv("PARLEY_API_TOKEN")
local channel = os.getenv("BENCH_CHANNEL") or "h1m"
local count = tonumber(os.getenv("BENCH_MESSAGES") or "1000000")
-- More query parameters, e.g. "&include_reply_type=ALL".
local extra = os.getenv("BENCH_QUERY_EXTRA") or ""
local requests = {}

init = function(args)
  math.randomseed(os.time() + (tonumber(tostring(args):match("0x(%x+)") or "0", 16) % 1000))
  for n = 1, 1000 do
    local ts = 1700000000000 + math.random(51, count)
    requests[n] = wrk.format("GET", "/v3/group_channels/" .. channel .. "/messages?message_ts=" .. ts
      .. "&prev_limit=50&next_limit=0&user_id=u1" .. extra, { ["Api-Token"] = token })
  end
end

request = function()
  return requests[math.random(1, #requests)]
end
