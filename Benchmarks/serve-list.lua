-- The list path: GET /v1/devices/D/registrations/PT for registered devices (200 with serialNumbers, lastUpdated).
dofile(os.getenv("PM_LUA_DIR") .. "/serve-common.lua")

function request()
   local d = pick(targets.devices)
   return wrk.format("GET", "/v1/devices/" .. d .. "/registrations/" .. targets.passType)
end
