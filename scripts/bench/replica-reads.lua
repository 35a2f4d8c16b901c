-- wrk script: the reads of a chat client, as session users who do not write (issue 51.5): a
-- history page of 30 messages of one of the seeded 10-member channels (c1…c100), or a user
-- lookup, half and half, each as a random one of the users u1…u10, whose session tokens are the
-- lines of the file BENCH_TOKENS (line k: u<k>'s). Requests are formatted up front.
local file = assert(io.open(os.getenv("BENCH_TOKENS")))
local tokens = {}
for line in file:lines() do tokens[#tokens + 1] = line end
file:close()
local channels = tonumber(os.getenv("BENCH_CHANNELS") or "100")
local requests = {}

init = function(args)
  math.randomseed(os.time() + (tonumber(tostring(args):match("0x(%x+)") or "0", 16) % 1000))
  for n = 1, 1000 do
    local headers = { ["Session-Token"] = tokens[math.random(1, #tokens)] }
    if n % 2 == 0 then
      requests[n] = wrk.format("GET", "/v3/group_channels/c" .. math.random(1, channels)
        .. "/messages?message_ts=9999999999999&prev_limit=30&next_limit=0", headers)
    else
      requests[n] = wrk.format("GET", "/v3/users/u" .. math.random(1, #tokens), headers)
    end
  end
end

request = function()
  return requests[math.random(1, #requests)]
end
