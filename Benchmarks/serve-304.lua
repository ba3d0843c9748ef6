-- The 304 path: GET /v1/passes/PT/S with the pass's own Last-Modified as If-Modified-Since.
dofile(os.getenv("PM_LUA_DIR") .. "/serve-common.lua")

function request()
   local p = pick(targets.passes)
   return wrk.format("GET", "/v1/passes/" .. targets.passType .. "/" .. p.serial,
      { ["Authorization"] = "ApplePass " .. p.token, ["If-Modified-Since"] = p.lastModified })
end
