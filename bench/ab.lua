-- bench/ab.lua -- two builds of the module on the same scenarios, A and B
-- alternating, so that both sides see the same machine (shared, noisy).
--
--   lua5.4 bench/ab.lua <cpath-dir-A> <cpath-dir-B> [runs] [lua-heuristic | astar | modes]
--
-- A side may carry module_bench.lua arguments of its own after a comma:
-- `bench/ab.lua build,algorithm=astar build` is this build's default
-- against its own A*, alternating in the same run.
-- Each directory holds an astar/core.so (for instance a worktree's build/
-- of the commit before a change, and this tree's build/).  For every map
-- family of ../shared/maps (bench/plan.lua, as bench/run.lua) it runs
-- bench/module_bench.lua with A, then B, `runs` times (default 5), each in
-- its own process, and prints per family the median CPU seconds (os.clock)
-- of each side and the median of the per-run ratios B / A (below 1, B is
-- faster), then the same for the median query (every query of the family
-- in one run, module_bench.lua's times_us: microsecond resolution).
-- Every answer is checked against the scenario optimum as in
-- module_bench.lua.
--
-- With "astar", the families run algorithm = "astar" (A*'s fast path, not
-- the default jump point search).  With "modes", the rows are the search modes of bench/modes.lua (A*'s
-- general loop, cell costs, sized units, reverse distances, hex grids) on
-- MODES_MAP (default brc202d), A and B alternating the same way;
-- the two sides must agree on every path cost.
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"
local A, B = arg[1], arg[2]
local RUNS = tonumber(arg[3] or "5")
local EXTRA = arg[4] == "lua-heuristic" and " lua-heuristic"
  or arg[4] == "astar" and " algorithm=astar" or ""
local MODES = arg[4] == "modes"
if not (A and B and RUNS) then
  io.stderr:write("usage: lua5.4 bench/ab.lua <cpath-dir-A> <cpath-dir-B> [runs] [lua-heuristic | astar | modes]\n")
  os.exit(2)
end

local util = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua")
local median = util.median

if MODES then
  local map = ("%s/%s.map"):format(MAPS, os.getenv("MODES_MAP") or "brc202d")
  local function run(dir)
    local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='%s/?.so;;' %s bench/modes.lua %s 2>&1")
      :format(dir, LUA, map)
    local p = assert(io.popen(cmd))
    local out, got = p:read("*a"), {}
    p:close()
    for mode, sec, check in out:gmatch("mode=(%S+) seconds=(%S+) expansions=%S+ check=(%S+)") do
      got[#got + 1] = { mode = mode, sec = tonumber(sec), check = check }
    end
    if #got == 0 then error("bench/modes.lua failed: " .. cmd .. "\n" .. out) end
    return got
  end
  local rows = {}
  for r = 1, RUNS do
    local a, b
    if r % 2 == 1 then a = run(A); b = run(B) else b = run(B); a = run(A) end
    for i, x in ipairs(a) do
      local y = b[i]
      if y.check ~= x.check then
        error(("%s: A and B disagree on the path costs (%s vs %s)"):format(x.mode, x.check, y.check))
      end
      rows[i] = rows[i] or { mode = x.mode, as = {}, bs = {}, ratios = {} }
      rows[i].as[r], rows[i].bs[r], rows[i].ratios[r] = x.sec, y.sec, y.sec / x.sec
    end
  end
  print(("A = %s, B = %s, %d runs, modes on %s"):format(A, B, RUNS, map))
  print("| mode | A median s | B median s | B / A (median of runs) |")
  print("|---|---:|---:|---:|")
  for _, row in ipairs(rows) do
    print(("| %s | %.3f | %.3f | %.3f |"):format(row.mode, median(row.as), median(row.bs), median(row.ratios)))
  end
  os.exit(0)
end

-- AB_FINE=1 (opt-in; the columns above are unchanged) adds three columns:
-- the median query again, but (1) interpolated within the clock's 1 us
-- steps (os.clock counts whole microseconds here, so a plain median moves
-- only by whole steps: each time k stands for [k - 0.5, k + 0.5), and the
-- median is placed in its step by the share of the queries below it, the
-- grouped median) and (2) less the cost of one os.clock call, which every
-- timed query pays on both sides (CLOCK_PROCESS_CPUTIME_ID is a system call
-- on some machines), calibrated in this process before the runs.
local FINE = os.getenv("AB_FINE") == "1"
local CLOCK_US = 0
if FINE then
  local clock, n = os.clock, 200000
  local best = math.huge
  for _ = 1, 5 do
    local t0 = clock()
    for _ = 1, n do clock() end
    best = math.min(best, (clock() - t0) / n * 1e6)
  end
  CLOCK_US = best
end

-- The grouped median of whole-microsecond times (see AB_FINE), less the
-- clock's cost; times that are not all whole take the plain median.
local function fine_median(t) return util.grouped_median(t) - CLOCK_US end

local PLAN = dofile("bench/plan.lua")
local plan, families = PLAN.rows, PLAN.families

-- One map's rows on one side: the total CPU seconds and each query's time
-- (microseconds, module_bench.lua's times_us), appended to `times`.
-- A side is a directory, optionally followed by module_bench arguments of
-- its own after a comma ("build,algorithm=astar": the same build's A*, for
-- same-run ratios against it).
local function seconds(side, map, stride, times)
  local dir, own = side:match("^([^,]*),?(.*)$")
  local extra = EXTRA .. (own ~= "" and " " .. own:gsub(",", " ") or "")
  local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='%s/?.so;;' %s bench/module_bench.lua "
    .. "%s/%s.map %s/%s.map.scen %d%s 2>&1"):format(dir, LUA, MAPS, map, MAPS, map, stride, extra)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  local s, bad = out:match("seconds=(%S+)"), out:match("mismatches=(%d+)")
  if not s or bad ~= "0" then error("benchmark failed: " .. cmd .. "\n" .. out) end
  for t in (out:match("times_us=(%S+)") or ""):gmatch("[^,]+") do times[#times + 1] = tonumber(t) end
  return tonumber(s)
end

print(("A = %s, B = %s, %d runs%s"):format(A, B, RUNS, EXTRA))
if FINE then
  print(("(AB_FINE: median~ = the grouped median less one os.clock call, %.3f us)"):format(CLOCK_US))
  print("| family | A total s | B total s | B / A total | A median us | B median us | B / A median "
    .. "| A median~ us | B median~ us | B / A median~ |")
  print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
else
  print("| family | A total s | B total s | B / A total | A median us | B median us | B / A median |")
  print("|---|---:|---:|---:|---:|---:|---:|")
end
local ONLY = os.getenv("FAMILIES") -- e.g. FAMILIES=game,street: only those
for _, fam in ipairs(families) do
  if ONLY and not (("," .. ONLY .. ","):find("," .. fam .. ",", 1, true)) then goto next_family end
  local as, bs, ratios, ams, bms, mratios = {}, {}, {}, {}, {}, {}
  local afs, bfs, fratios = {}, {}, {}
  for r = 1, RUNS do
    local a, b, at, bt = 0, 0, {}, {}
    for _, row in ipairs(plan) do
      if row[1] == fam then
        -- alternate which side goes first, so neither always runs warm
        if r % 2 == 1 then
          a = a + seconds(A, row[2], row[3], at); b = b + seconds(B, row[2], row[3], bt)
        else
          b = b + seconds(B, row[2], row[3], bt); a = a + seconds(A, row[2], row[3], at)
        end
      end
    end
    as[r], bs[r], ratios[r] = a, b, b / a
    ams[r], bms[r] = median(at), median(bt)
    mratios[r] = bms[r] / ams[r]
    if FINE then
      afs[r], bfs[r] = fine_median(at), fine_median(bt)
      fratios[r] = bfs[r] / afs[r]
    end
  end
  local row = ("| %s | %.3f | %.3f | %.3f | %.1f | %.1f | %.3f |"):format(fam, median(as), median(bs),
    median(ratios), median(ams), median(bms), median(mratios))
  if FINE then
    row = row .. (" %.2f | %.2f | %.3f |"):format(median(afs), median(bfs), median(fratios))
  end
  print(row)
  ::next_family::
end
