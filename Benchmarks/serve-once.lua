-- Downloads each pass of LIST ("type|serial|token" lines) once, over the connections of one wrk thread (-t1),
-- and prints "PMRESULT requests=N seconds=S failed=F" when the last answer is in, timed from the first request
-- (wrk itself runs on to its -d; the caller stops it at that line). The first time through a store-only list every
-- download is a cold render and signature; run again, every one is cached.
local rows = {}
for line in io.lines(os.getenv("LIST")) do
   local t, s, k = line:match("([^|]+)|([^|]+)|([^|\r]+)")
   if t then rows[#rows + 1] = { "/v1/passes/" .. t .. "/" .. s, "ApplePass " .. k } end
end
local sent, answered, failed, started = 0, 0, 0, nil

local function now()
   local clock = io.popen("date +%s.%N")
   local text = clock:read("*l")
   clock:close()
   return tonumber(text)
end

function request()
   if started == nil then started = now() end
   sent = sent + 1
   -- Past the end (the other connections' last requests): the last pass again, not counted. Formatted here, not
   -- when the file is read: wrk sets the Host header only once the thread is set up.
   local row = rows[math.min(sent, #rows)]
   return wrk.format("GET", row[1], { Authorization = row[2] })
end

function response(status, headers, body)
   answered = answered + 1
   if status ~= 200 or body:sub(1, 2) ~= "PK" then failed = failed + 1 end
   if answered == #rows then
      io.write(string.format("PMRESULT requests=%d seconds=%.3f failed=%d\n", #rows, now() - started, failed))
      io.flush()
      wrk.thread:stop()
   end
end
