-- Registration POSTs: a new device library ID and push token on every request (201 each), spread over the passes.
dofile(os.getenv("PM_LUA_DIR") .. "/serve-common.lua")
local run = os.getenv("PM_RUN") or "r"

function request()
   local p = pick(targets.passes)
   local device = string.format("wrk-%s-%d-%d", run, tid, counter)
   local body = string.format('{"pushToken":"%02x%062x"}', tid, counter)
   return wrk.format("POST", "/v1/devices/" .. device .. "/registrations/" .. targets.passType .. "/" .. p.serial,
      { ["Authorization"] = "ApplePass " .. p.token, ["Content-Type"] = "application/json" }, body)
end
