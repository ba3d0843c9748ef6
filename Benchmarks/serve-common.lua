-- Shared by the Benchmarks/serve wrk scripts: loads the targets file the script wrote (PM_TARGETS) and prints
-- one machine-readable result line at the end of a run.
--   targets file: return { passType = "...", passes = { {serial=, token=, lastModified=}, ... }, devices = { ... } }
targets = dofile(os.getenv("PM_TARGETS"))
counter = 0

local threads = 0
function setup(thread)
   threads = threads + 1
   thread:set("tid", threads)
end

function pick(list)
   counter = counter + 1
   return list[(counter % #list) + 1]
end

function done(summary, latency, requests)
   local e = summary.errors
   io.write(string.format(
      "PMRESULT requests=%d duration_us=%d p50_us=%d p99_us=%d errors_connect=%d errors_read=%d " ..
      "errors_write=%d errors_status=%d errors_timeout=%d\n",
      summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
      e.connect, e.read, e.write, e.status, e.timeout))
end
