-- wrk script: POST a message to a random one of the seeded channels as one of its members
-- (as the admin, naming the sender: flood protection exempts the admin, so the rate is the
-- server's, not the limiter's).
local token = os.getenv("PARLEY_API_TOKEN")
local channels = tonumber(os.getenv("BENCH_CHANNELS") or "100")
-- "c": the 10-member channels; "p": the 1-to-1 channels (the sender's partner is the next user).
local prefix = os.getenv("BENCH_PREFIX") or "c"
-- More members of every body, e.g. ',"send_push":false'.
local extra = os.getenv("BENCH_EXTRA") or ""
math.randomseed(os.time())
local counter = 0

request = function()
  counter = counter + 1
  local c = math.random(1, channels)
  local body = string.format('{"user_id":"u%d","message":"hello %d"%s}', (c % 10) + 1, counter, extra)
  return wrk.format("POST", "/v3/group_channels/" .. prefix .. c .. "/messages",
    { ["Api-Token"] = token, ["Content-Type"] = "application/json" }, body)
end
