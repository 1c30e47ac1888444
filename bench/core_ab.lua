-- bench/core_ab.lua -- bench/ab.lua through the C API: two core_bench
-- binaries (bench/core_bench.c, no Lua) on the same Moving AI rows
-- (bench/plan.lua), A and B alternating, so both sides see the same machine.
--
--   lua5.4 bench/core_ab.lua <core_bench-A> <core_bench-B> [runs] [algorithm-A] [algorithm-B]
--
-- Each side is a core_bench executable (`make build/bench/core_bench` in a
-- tree of each commit); algorithm is auto (default), astar, jps or jps+
-- (core_bench builds the jump table first, untimed).  REPS=n (default 1)
-- runs every query n times and keeps its fastest (REPS=1: each query as the
-- first of its process meets it, as bench/ab.lua's module_bench does; more:
-- warm search state and caches).  FAMILIES=game,street: only those.
-- Prints per family the median of the per-run totals of each side, the
-- median of the per-run ratios B / A (below 1, B is faster), and the median
-- over runs of the ratio of the per-map median query times' median.
-- Every answer is checked against the scenario optimum (core_bench exits
-- non-zero on a mismatch, which stops this script).  Times are CPU time;
-- CORE_BENCH_CLOCK=wall (passed on to both sides) times each query by
-- CLOCK_MONOTONIC instead, and the script stops if the two sides report
-- different clocks (a core_bench older than the option prints none: CPU).
local MAPS = os.getenv("MAPS") or "../shared/maps"
local A, B = arg[1], arg[2]
local RUNS = tonumber(arg[3] or "5")
local ALG_A, ALG_B = arg[4] or "auto", arg[5] or "auto"
local REPS = tonumber(os.getenv("REPS") or "1")
if not (A and B and RUNS) then
  io.stderr:write("usage: lua5.4 bench/core_ab.lua <core_bench-A> <core_bench-B> [runs] [algorithm-A] [algorithm-B]\n")
  os.exit(2)
end

local median = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua").median

-- One map on one side: its total CPU seconds and its median query (us).
local function run(bin, map, stride, alg)
  local cmd = ("%s %s/%s.map %s/%s.map.scen %d %d %s 2>&1"):format(bin, MAPS, map, MAPS, map, stride, REPS, alg)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local s, m, bad = out:match("seconds=(%S+)"), out:match("median_us=(%S+)"), out:match("mismatches=(%d+)")
  if not s or bad ~= "0" then error("core_bench failed: " .. cmd .. "\n" .. out) end
  local clock = out:match("clock=(%a+)") or "cpu"
  if clock ~= (os.getenv("CORE_BENCH_CLOCK") or "cpu") then
    error(("%s timed by the %s clock, CORE_BENCH_CLOCK asks for %s"):format(bin, clock,
      os.getenv("CORE_BENCH_CLOCK") or "cpu"))
  end
  return tonumber(s), tonumber(m)
end

local PLAN = dofile("bench/plan.lua")
local ONLY = os.getenv("FAMILIES")
print(("A = %s (%s), B = %s (%s), %d runs, REPS=%d, %s clock"):format(A, ALG_A, B, ALG_B, RUNS, REPS,
  os.getenv("CORE_BENCH_CLOCK") == "wall" and "wall (CLOCK_MONOTONIC)" or "CPU-time"))
print("| family | A total ms | B total ms | B / A total | B / A median of the per-map medians |")
print("|---|---:|---:|---:|---:|")
for _, fam in ipairs(PLAN.families) do
  if ONLY and not (("," .. ONLY .. ","):find("," .. fam .. ",", 1, true)) then goto next_family end
  local as, bs, ratios, mratios = {}, {}, {}, {}
  for r = 1, RUNS do
    local a, b, am, bm = 0, 0, {}, {}
    for _, row in ipairs(PLAN.rows) do
      if row[1] == fam then
        local sa, ma, sb, mb
        -- alternate which side goes first, so neither always runs warm
        if r % 2 == 1 then
          sa, ma = run(A, row[2], row[3], ALG_A); sb, mb = run(B, row[2], row[3], ALG_B)
        else
          sb, mb = run(B, row[2], row[3], ALG_B); sa, ma = run(A, row[2], row[3], ALG_A)
        end
        a, b = a + sa, b + sb
        am[#am + 1], bm[#bm + 1] = ma, mb
      end
    end
    as[r], bs[r], ratios[r], mratios[r] = a, b, b / a, median(bm) / median(am)
  end
  print(("| %s | %.2f | %.2f | %.3f | %.3f |"):format(fam, median(as) * 1e3, median(bs) * 1e3,
    median(ratios), median(mratios)))
  ::next_family::
end
