-- wrk script: one of the seeded messages, as the admin, either read (BENCH_MODE=read: GET the
-- message) or translated into a language already stored (BENCH_MODE=translate: POST
-- …/translation, answered from the stored translation). Requests are formatted up front.
local token = os.getenv("PARLEY_API_TOKEN")
local channel = os.getenv("BENCH_CHANNEL")
local first = tonumber(os.getenv("BENCH_FIRST_ID"))
local count = tonumber(os.getenv("BENCH_MESSAGES") or "100")
local mode = os.getenv("BENCH_MODE") or "read"
local requests = {}

init = function(args)
  for n = 0, count - 1 do
    local path = "/v3/group_channels/" .. channel .. "/messages/" .. (first + n)
    if mode == "translate" then
      requests[n + 1] = wrk.format("POST", path .. "/translation",
        { ["Api-Token"] = token, ["Content-Type"] = "application/json" }, '{"target_langs":["es"]}')
    else
      requests[n + 1] = wrk.format("GET", path, { ["Api-Token"] = token })
    end
  end
end

request = function()
  return requests[math.random(1, count)]
end
