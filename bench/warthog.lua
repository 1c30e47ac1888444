-- bench/warthog.lua -- issue 19's anchor: the same Moving AI queries through
-- warthog's four jump point searches (ShortestPathLab's warthog-jps on
-- warthog-core, C++) and through this module, by its C API and through Lua,
-- alternating in one run.  A recipe: not in CI and not in make bench (it
-- needs sources the user fetched; CI cannot fetch).
--
--   lua5.4 bench/warthog.lua <warthog-jps dir> [runs] [algs]
--
-- Getting warthog (outside this repository; the versions issue 19 names):
--   git clone https://github.com/ShortestPathLab/warthog-jps /tmp/warthog/warthog-jps
--   git -C /tmp/warthog/warthog-jps checkout v0.5.1
--   git clone https://github.com/ShortestPathLab/warthog-core \
--     /tmp/warthog/warthog-jps/extern/warthog-core
--   git -C /tmp/warthog/warthog-jps/extern/warthog-core checkout f379ef2
-- (the commit warthog-jps v0.5.1 pins as its submodule; with no
-- extern/warthog-core its CMake fetches one itself).  It is built once,
-- Release (-O3, no -march), into <dir>/build (cmake and a C++20 compiler).
-- This tree needs `make` and `make build/bench/core_bench` first (the
-- script builds core_bench if it is missing).
--
-- runs: default 3.  algs: warthog's algorithms, comma-separated (default
-- "jps,jps2,jps+,jps2+").  FAMILIES=game,street: only those families.
-- SIDES=c,lua,warthog (default those three): which kinds of side run;
-- cpath adds two more C API sides, "astar C auto, path" and "astar C jps+,
-- path", whose time includes writing every cell of the path
-- (CORE_BENCH_PATH=1: what find_path's result costs in C, which warthog's
-- nanos and the other C sides leave out).
--
-- The sides, per map of bench/plan.lua (every stride-th scenario row; a
-- scenario file of those rows is written to build/warthog/ for warthog):
--   warthog <alg>   its own per-query "nanos": std::chrono::steady_clock
--                   (wall time, vDSO) around its search alone (no path
--                   extraction); the jps+ tables are built untimed in its
--                   expansion policy's constructor.
--   astar C auto    build/bench/core_bench, algorithm auto (online JPS:
--   astar C jps+    no jump table) and jps+ (grid:precompute_jumps()'s table,
--                   built untimed), with CORE_BENCH_CLOCK=wall: each query's
--                   astar_search_begin + astar_search_step timed by
--                   CLOCK_MONOTONIC (vDSO), the way warthog times its
--                   search, the path read afterwards untimed.
--   astar Lua auto  bench/module_bench.lua on this tree's build/ (the
--   astar Lua jps+  default options, and algorithm=jps+ after
--                   grid:precompute_jumps(), untimed): CPU time by os.clock
--                   around find_path, the Lua call and the result table
--                   included (what a game pays).  os.clock counts whole
--                   microseconds and costs ~0.5 us a call (a system call on
--                   this VM), so the Lua rows' median is the grouped median
--                   within the clock's 1 us steps less one os.clock call,
--                   calibrated here ("median" column, marked ~).
-- In each run every map runs every side, each in its own process, in an
-- order rotated from run to run so that no side always runs first.  Every
-- answer is checked against the scenario optimum (warthog's --checkopt,
-- core_bench's and module_bench's own checks); a failure stops the script.
--
-- Printed, per family and per side (then the same per map):
--   total     every query's time, the median over the runs, summed: a wall
--             clock also counts the time another process held the CPU, and
--             one run's preempted query does not move a median of 3 or 5
--             (the Lua sides less one os.clock call a query);
--   median    the median query of all the family's queries pooled, the
--             median over the runs;
--   ratios    to astar's C API auto and jps+ (totals: of the totals above;
--             medians: same run, the median of the runs); below 1 = faster;
--   expansions per query and ns per expansion (total over expansions).
-- Expansions are comparable: warthog stops when the target, already
-- generated, comes to the top of its open list and does not count it as
-- expanded; astar counts taking the goal from the open list as an
-- expansion, so astar's figures here are its count less one per query.
-- A line after the family table compares them query by query (run 1):
-- astar auto against warthog jps2, astar jps+ against warthog jps2+.
local LUA = os.getenv("LUA") or "lua5.4"
local MAPS = os.getenv("MAPS") or "../shared/maps"
local dir, RUNS = arg[1], tonumber(arg[2] or "3")
local WALGS = {}
for a in (arg[3] or "jps,jps2,jps+,jps2+"):gmatch("[^,]+") do WALGS[#WALGS + 1] = a end
if not dir or not RUNS then
  io.stderr:write("usage: lua5.4 bench/warthog.lua <warthog-jps dir> [runs] [algs]\n")
  os.exit(2)
end
local util = dofile(((arg and arg[0] or ""):match("^(.*)[/\\]") or ".") .. "/util.lua")
local median = util.median
local function listed(list, name)
  return not list or (("," .. list .. ","):find("," .. name .. ",", 1, true)) ~= nil
end
local KINDS, ONLY = os.getenv("SIDES") or "c,lua,warthog", os.getenv("FAMILIES")

local function sh(cmd)
  local ok = os.execute(cmd)
  if not ok then error("failed: " .. cmd) end
end
local function capture(cmd)
  local p = assert(io.popen(cmd))
  local out = p:read("*a")
  p:close()
  return out
end

local bin = dir .. "/build/warthog-jps"
if listed(KINDS, "warthog") and not io.open(bin, "rb") then
  sh(("cmake -B '%s/build' -S '%s' -DCMAKE_BUILD_TYPE=Release >/dev/null"):format(dir, dir))
  sh(("cmake --build '%s/build' --target warthog_jps >/dev/null"):format(dir))
end
local CORE = "build/bench/core_bench"
if (listed(KINDS, "c") or listed(KINDS, "cpath")) and not io.open(CORE, "rb") then
  sh("make --no-print-directory " .. CORE .. " >/dev/null")
end

local PLAN = dofile("bench/plan.lua")
sh("mkdir -p build/warthog")

-- The scenario file of a plan row: its header and every stride-th row.
local function scen_of(map, stride)
  local path = ("build/warthog/%s-%d.scen"):format(map, stride)
  local out = assert(io.open(path, "wb"))
  local i = 0
  for line in io.lines(("%s/%s.map.scen"):format(MAPS, map)) do
    if line:match("^version") then
      out:write(line, "\n")
    elseif line:match("%S") then
      if i % stride == 0 then out:write(line, "\n") end
      i = i + 1
    end
  end
  out:close()
  return path
end

-- Each runner returns one map's { times = {us...}, exp = total comparable
-- expansions, each = {per-query expansions} or nil, n = queries }.

local function run_warthog(alg, row)
  local cmd = ("'%s' --alg '%s' --scen '%s' --map '%s/%s.map' --checkopt 2>&1")
    :format(bin, alg, scen_of(row[2], row[3]), MAPS, row[2])
  local out = capture(cmd)
  local r, col = { times = {}, each = {}, exp = 0 }, nil
  for line in out:gmatch("[^\n]+") do
    local f = {}
    for x in line:gmatch("[^\t]+") do f[#f + 1] = x end
    if f[1] == "id" then
      for k, name in ipairs(f) do if name == "nanos" then col = k end end
    elseif col and tonumber(f[1]) and f[col] then
      r.times[#r.times + 1] = tonumber(f[col]) / 1000
      r.each[#r.each + 1] = tonumber(f[3])
      r.exp = r.exp + tonumber(f[3])
    end
  end
  if not col or out:find("optimality check failed") then error("warthog failed: " .. cmd .. "\n" .. out) end
  r.n = #r.times
  return r
end

local clock_us = {} -- core_bench's calibrated clock_us, last seen
local function run_c(alg, row, path)
  local cmd = ("CORE_BENCH_CLOCK=wall CORE_BENCH_TIMES=1 CORE_BENCH_PATH=%d %s %s/%s.map %s/%s.map.scen %d 1 %s 2>&1")
    :format(path and 1 or 0, CORE, MAPS, row[2], MAPS, row[2], row[3], alg)
  local out = capture(cmd)
  if out:match("mismatches=(%d+)") ~= "0" or not out:match("clock=wall")
    or (path and not out:match("path=timed")) then
    error("core_bench failed: " .. cmd .. "\n" .. out)
  end
  clock_us.c = tonumber(out:match("clock_us=(%S+)"))
  local r = { times = {}, each = {}, exp = 0 }
  for t in out:match("times_us=(%S+)"):gmatch("[^,]+") do r.times[#r.times + 1] = tonumber(t) end
  for e in out:match("expanded_each=(%S+)"):gmatch("[^,]+") do
    r.each[#r.each + 1] = tonumber(e) - 1 -- less the goal's pop (see the header)
    r.exp = r.exp + tonumber(e) - 1
  end
  r.n = #r.times
  return r
end

local function run_lua(alg, row)
  local cmd = ("LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/?.so;;' %s bench/module_bench.lua "
    .. "%s/%s.map %s/%s.map.scen %d%s 2>&1"):format(LUA, MAPS, row[2], MAPS, row[2], row[3],
      alg == "auto" and "" or " algorithm=" .. alg)
  local out = capture(cmd)
  if out:match("mismatches=(%d+)") ~= "0" then error("module_bench failed: " .. cmd .. "\n" .. out) end
  local r = { times = {} }
  for t in (out:match("times_us=(%S+)") or ""):gmatch("[^,]+") do r.times[#r.times + 1] = tonumber(t) end
  r.n = #r.times
  r.exp = tonumber(out:match("expansions=(%d+)")) - r.n
  return r
end

local SIDES = {}
if listed(KINDS, "c") then
  SIDES[#SIDES + 1] = { name = "astar C auto", run = run_c, alg = "auto", clock = "wall" }
  SIDES[#SIDES + 1] = { name = "astar C jps+", run = run_c, alg = "jps+", clock = "wall" }
end
if listed(KINDS, "cpath") then
  SIDES[#SIDES + 1] = { name = "astar C auto, path", run = run_c, alg = "auto", clock = "wall", path = true }
  SIDES[#SIDES + 1] = { name = "astar C jps+, path", run = run_c, alg = "jps+", clock = "wall", path = true }
end
if listed(KINDS, "warthog") then
  for _, a in ipairs(WALGS) do
    SIDES[#SIDES + 1] = { name = "warthog " .. a, run = run_warthog, alg = a, clock = "wall" }
  end
end
if listed(KINDS, "lua") then
  SIDES[#SIDES + 1] = { name = "astar Lua auto", run = run_lua, alg = "auto", clock = "cpu", lua = true }
  SIDES[#SIDES + 1] = { name = "astar Lua jps+", run = run_lua, alg = "jps+", clock = "cpu", lua = true }
end
local function side_named(name)
  for _, s in ipairs(SIDES) do if s.name == name then return s end end
end
local REF = { side_named("astar C auto"), side_named("astar C jps+") }

-- os.clock's own cost, as bench/ab.lua's AB_FINE calibrates it.
local OSCLOCK_US = math.huge
do
  local clock, n = os.clock, 200000
  for _ = 1, 5 do
    local t0 = clock()
    for _ = 1, n do clock() end
    OSCLOCK_US = math.min(OSCLOCK_US, (clock() - t0) / n * 1e6)
  end
end

-- A side's median query: plain for the wall-clock sides, grouped within
-- os.clock's 1 us steps less one os.clock call for the Lua sides.
local function qmedian(side, times)
  if side.lua then return util.grouped_median(times) - OSCLOCK_US end
  return median(times)
end

-- Runs everything.  got[side][map][run] = runner result.
local got = {}
for _, s in ipairs(SIDES) do got[s] = {} end
local rows = {}
for _, row in ipairs(PLAN.rows) do
  if listed(ONLY, row[1]) then rows[#rows + 1] = row end
end
local load0 = capture("uptime"):gsub("%s+$", "")
for r = 1, RUNS do
  for _, row in ipairs(rows) do
    for k = 0, #SIDES - 1 do
      local s = SIDES[(k + r - 1) % #SIDES + 1]
      got[s][row[2]] = got[s][row[2]] or {}
      local res = s.run(s.alg, row, s.path)
      got[s][row[2]][r] = res
      local n0 = got[SIDES[1]][row[2]] and got[SIDES[1]][row[2]][r]
      if n0 and res.n ~= n0.n then
        error(("%s on %s: %d queries, %s has %d"):format(s.name, row[2], res.n, SIDES[1].name, n0.n))
      end
    end
  end
end
local load1 = capture("uptime"):gsub("%s+$", "")

local function rev(d)
  return (capture(("git -C '%s' rev-parse --short HEAD 2>/dev/null"):format(d)):gsub("%s+$", ""))
end
print(("warthog-jps %s (%s), warthog-core %s; astar %s; %d runs, sides rotated from run to run")
  :format(dir, rev(dir), rev(dir .. "/extern/warthog-core"), rev("."), RUNS))
print("load before: " .. load0)
print("load after:  " .. load1)
print(("clocks: warthog's nanos and astar C = wall (steady_clock / CLOCK_MONOTONIC; core_bench's empty "
  .. "interval %s us); astar Lua = CPU (os.clock, one call %.3f us, subtracted from the Lua times; ~: grouped median)")
  :format(clock_us.c and ("%.3f"):format(clock_us.c) or "-", OSCLOCK_US))
print("total: every query's median over the runs, summed (Lua: less one os.clock call a query); "
  .. "median: the family's (map's) median query, median of the runs")
print("ratios: the side's over astar C auto's / C jps+'s (medians: same run, median of the runs); below 1 = faster")
print("expansions: warthog's count; astar's less the goal's pop, one per query (see the header)")

-- A set of maps pooled, per run: the median query (us), comparable
-- expansions, queries.
local function pooled(s, maps, r)
  local times, exp, n = {}, 0, 0
  for _, m in ipairs(maps) do
    local res = got[s][m][r]
    for _, t in ipairs(res.times) do times[#times + 1] = t end
    exp, n = exp + res.exp, n + res.n
  end
  return qmedian(s, times), exp, n
end

-- A set of maps' total (us): every query's median over the runs, summed
-- (a wall clock counts the time another process holds the CPU: one run's
-- preempted query does not move its median of 3 or 5), less one os.clock
-- call a query on the Lua sides.
local function total_of(s, maps)
  local t = 0
  for _, m in ipairs(maps) do
    for i = 1, got[s][m][1].n do
      local q = {}
      for r = 1, RUNS do q[r] = got[s][m][r].times[i] end
      t = t + median(q) - (s.lua and OSCLOCK_US or 0)
    end
  end
  return t
end

local function table_for(label, maps)
  local per = {}
  for _, s in ipairs(SIDES) do
    local x = { m = {}, exp = 0, n = 0, t = total_of(s, maps) }
    for r = 1, RUNS do x.m[r], x.exp, x.n = pooled(s, maps, r) end
    per[s] = x
  end
  local function ratio(s, ref, key)
    if not ref then return "-" end
    if key == "t" then return ("%.2f"):format(per[s].t / per[ref].t) end
    local q = {}
    for r = 1, RUNS do q[r] = per[s].m[r] / per[ref].m[r] end
    return ("%.2f"):format(median(q))
  end
  for _, s in ipairs(SIDES) do
    local x = per[s]
    print(("| %s | %s | %s | %.2f | %.2f%s | %s | %s | %s | %s | %.1f | %.0f |"):format(label, s.name, s.clock,
      x.t / 1000, median(x.m), s.lua and "~" or "", ratio(s, REF[1], "t"), ratio(s, REF[1], "m"),
      ratio(s, REF[2], "t"), ratio(s, REF[2], "m"), x.exp / x.n, x.t * 1000 / x.exp))
  end
end

-- Query by query (run 1): astar's comparable expansions against warthog's.
local function same_nodes(maps, a, w)
  local sa, sw = side_named(a), side_named(w)
  if not (sa and sw) then return end
  local same, n, ea, ew = 0, 0, 0, 0
  for _, m in ipairs(maps) do
    local x, y = got[sa][m][1], got[sw][m][1]
    for i = 1, x.n do
      n = n + 1
      if x.each[i] == y.each[i] then same = same + 1 end
      ea, ew = ea + x.each[i], ew + y.each[i]
    end
  end
  return ("%s and %s expand as many nodes on %d of %d queries (%d against %d in all)"):format(a, w, same, n, ea, ew)
end

local HEAD = "| %s | side | clock | total ms | median us | total / C auto | median / C auto "
  .. "| total / C jps+ | median / C jps+ | expansions / query | ns / expansion |"
local RULE = "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
print()
print(HEAD:format("family"))
print(RULE)
local checks = {}
for _, fam in ipairs(PLAN.families) do
  local maps = {}
  for _, row in ipairs(rows) do if row[1] == fam then maps[#maps + 1] = row[2] end end
  if #maps > 0 then
    table_for(fam, maps)
    checks[#checks + 1] = fam .. ": " .. (same_nodes(maps, "astar C auto", "warthog jps2") or "-") .. "; "
      .. (same_nodes(maps, "astar C jps+", "warthog jps2+") or "-")
  end
end
print()
for _, c in ipairs(checks) do print(c) end
print()
print(HEAD:format("map"))
print(RULE)
for _, row in ipairs(rows) do table_for(row[2], { row[2] }) end
