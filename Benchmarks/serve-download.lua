-- The full download path from the render cache: GET /v1/passes/PT/S without If-Modified-Since (200, whole pass).
dofile(os.getenv("PM_LUA_DIR") .. "/serve-common.lua")

function request()
   local p = pick(targets.passes)
   return wrk.format("GET", "/v1/passes/" .. targets.passType .. "/" .. p.serial,
      { ["Authorization"] = "ApplePass " .. p.token })
end
